import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { type GateNetwork, getGateToken, setGateUnauthorizedHandler } from '../../api/gate';
import { useRouteTitle } from '../../app/document-title';
import { GatePairing } from './gate-pairing';
import { GATE_CONFIG_KEY, GateScreen } from './gate-screen';
import { forgetStation, useStationEvents } from './station-events';
import { StationStatusBar } from './station-status-bar';

/**
 * `/gate` (issue 11): public in the router, not behind the admin login. A browser holding a
 * device token (localStorage, its own key) shows the gate screen; otherwise the pairing page.
 * A 401 from the server (unpaired with bcClear, device deleted, device key rotated) returns here.
 * Served by an Accredo Station (issue 12) the station holds the pairing: its status decides
 * pairing page or gate screen, a status bar shows it, and its readers' decisions appear here.
 */
export function GatePage({ network }: { network?: GateNetwork }) {
  const queryClient = useQueryClient();
  const [paired, setPaired] = useState(() => getGateToken() !== null);
  // the server refused the token (key rotated, device deleted, unpaired elsewhere): the pairing
  // page says why the gate left the scan screen, and that the last code was not checked
  const [revoked, setRevoked] = useState(false);
  const station = useStationEvents();
  const stationPaired = station?.status.paired;
  useRouteTitle('gate.title');

  useEffect(() => {
    setGateUnauthorizedHandler(() => {
      setRevoked(true);
      setPaired(false);
    });
    return () => setGateUnauthorizedHandler(() => undefined);
  }, []);

  // the station paired or unpaired (a code at its reader, another screen): its config is another
  useEffect(() => {
    if (stationPaired === undefined) return;
    queryClient.removeQueries({ queryKey: GATE_CONFIG_KEY });
    setPaired(stationPaired);
  }, [stationPaired, queryClient]);

  const bar = station && <StationStatusBar status={station.status} connected={station.connected} />;
  if (!(station ? station.status.paired : paired)) {
    return (
      <>
        {bar}
        <GatePairing
          notice={revoked ? 'gate.pair.revoked' : null}
          onPaired={() => {
            queryClient.removeQueries({ queryKey: GATE_CONFIG_KEY });
            setRevoked(false);
            setPaired(true);
          }}
        />
      </>
    );
  }
  return (
    <>
      {bar}
      <GateScreen
        network={network}
        station={station}
        onUnpaired={() => {
          queryClient.removeQueries({ queryKey: GATE_CONFIG_KEY });
          setRevoked(false);
          setPaired(false);
          if (station) void forgetStation();
        }}
      />
    </>
  );
}
