import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { type GateNetwork, getGateToken, setGateUnauthorizedHandler } from '../../api/gate';
import { GatePairing } from './gate-pairing';
import { GATE_CONFIG_KEY, GateScreen } from './gate-screen';

/**
 * `/gate` (issue 11): public in the router, not behind the admin login. A browser holding a
 * device token (localStorage, its own key) shows the gate screen; otherwise the pairing page.
 * A 401 from the server (unpaired with bcClear, device deleted, device key rotated) returns here.
 */
export function GatePage({ network }: { network?: GateNetwork }) {
  const queryClient = useQueryClient();
  const [paired, setPaired] = useState(() => getGateToken() !== null);

  useEffect(() => {
    setGateUnauthorizedHandler(() => setPaired(false));
    return () => setGateUnauthorizedHandler(() => undefined);
  }, []);

  if (!paired) {
    return (
      <GatePairing
        onPaired={() => {
          queryClient.removeQueries({ queryKey: GATE_CONFIG_KEY });
          setPaired(true);
        }}
      />
    );
  }
  return (
    <GateScreen
      network={network}
      onUnpaired={() => {
        queryClient.removeQueries({ queryKey: GATE_CONFIG_KEY });
        setPaired(false);
      }}
    />
  );
}
