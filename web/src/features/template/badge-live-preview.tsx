import { hasRight, PAGE_SIZES_PRINT } from '@accredo/domain';
import { buildContext, type TemplateParams } from '@accredo/templates/catalogue';
import {
  Alert,
  Anchor,
  Box,
  Group,
  Loader,
  Paper,
  SegmentedControl,
  Select,
  Stack,
  Text,
  Title,
  VisuallyHidden,
} from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { useQuery } from '@tanstack/react-query';
import { useEffect, useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { accreditationApi } from '../../api/accreditation';
import { accreditationListApi, EMPTY_FILTER } from '../../api/accreditation-list';
import { ApiError } from '../../api/client';
import { CUSTOM_FIELD_LIST_KEY, customFieldApi } from '../../api/custom-field';
import { groupsApi } from '../../api/groups';
import { templateEngineApi } from '../../api/template';
import { zoneApi } from '../../api/zone';
import { useAdminSession } from '../../app/admin-session';
import { useCurrentAction } from '../action/use-current-action';
import { type PageSize, pageSizeLabel } from './template-constants';
import { useSampleParams } from './use-sample-params';

export type PreviewFormat = 'html' | 'pdf';

/** How long the preview waits after the last keystroke before it renders. */
export const PREVIEW_DELAY_MS = 500;

const SAMPLE = 'sample';

/**
 * The values of one person of the current action, built by the engine's own buildContext from
 * what the server has of them (their groups and zones by name, for ifGroup and ifZone), as a
 * print of their badge would be.
 */
function usePersonParams(personId: number | null): { params: TemplateParams | undefined; loading: boolean } {
  const { i18n } = useTranslation();
  const session = useAdminSession();
  const { action } = useCurrentAction();
  const person = useQuery({
    queryKey: ['admin', 'accreditation', action?.id, personId, 'badge-preview'],
    queryFn: () => accreditationApi.get(action?.id ?? 0, personId ?? 0),
    enabled: Boolean(action && personId),
  });
  const groups = useQuery({
    queryKey: ['admin', 'groups'],
    queryFn: groupsApi.list,
    enabled: Boolean(personId) && hasRight(session, 'groups', 'get'),
  });
  const zones = useQuery({
    queryKey: ['admin', 'zone'],
    queryFn: zoneApi.list,
    enabled: Boolean(personId) && hasRight(session, 'zone', 'get'),
  });
  const fields = useQuery({
    queryKey: CUSTOM_FIELD_LIST_KEY,
    queryFn: customFieldApi.list,
    enabled: Boolean(personId) && hasRight(session, 'customField', 'get'),
  });
  const params = useMemo(() => {
    const p = person.data;
    if (!p || !action) return undefined;
    const groupById = new Map((groups.data ?? []).map((g) => [g.id, g]));
    const zoneById = new Map((zones.data ?? []).map((z) => [z.id, z]));
    const known = new Map((fields.data ?? []).map((f) => [f.id, f]));
    const own = [...p.groupIds].sort((a, b) => a - b).flatMap((id) => groupById.get(id) ?? []);
    // the group whose template prints the badge, as the print does: the first with a template
    const printing = own.find((g) => g.adminTemplateId) ?? own[0] ?? null;
    return buildContext({
      accreditation: p,
      action: { name: action.name, days: action.days },
      group: printing,
      groups: own,
      zones: [...p.zoneIds].sort((a, b) => a - b).flatMap((id) => zoneById.get(id) ?? []),
      fields: action.customField.map((f) => ({
        id: f.id,
        customFieldType: f.customFieldType,
        options: known.get(f.id)?.options ?? [],
      })),
      imageUrl: p.image?.path ?? null,
      language: i18n.language,
    });
  }, [person.data, action, groups.data, zones.data, fields.data, i18n.language]);
  return { params, loading: person.isLoading };
}

/** The people of the current action found by a search (first 20), for the person select. */
function usePeopleSearch(search: string) {
  const { action } = useCurrentAction();
  const session = useAdminSession();
  const [query] = useDebouncedValue(search.trim(), 300);
  return useQuery({
    queryKey: ['admin', 'accreditation', 'badge-preview-search', action?.id, query],
    queryFn: ({ signal }) =>
      accreditationListApi.list(
        { actionId: action?.id ?? 0, page: 1, pageSize: 20, filterData: { ...EMPTY_FILTER, text: query || null } },
        signal,
      ),
    enabled: Boolean(action) && hasRight(session, 'user', 'getUser'),
    staleTime: 10_000,
  });
}

type Rendered = ({ format: 'html'; html: string } | { format: 'pdf'; url: string }) & { size: PageSize };

/** The reason of a failed render: the engine's words with the line, or the server's message. */
function errorText(error: unknown, fallback: string): string {
  if (error instanceof ApiError) {
    if (error.code === 'TEMPLATE_SYNTAX_ERROR' && typeof error.details.reason === 'string') return error.details.reason;
    return error.message || fallback;
  }
  return fallback;
}

export interface BadgeLivePreviewProps {
  /** the template's current (unsaved) HTML */
  html: string;
  /** the form's page size: the preview starts with it and follows its changes */
  pageSize: PageSize;
}

/**
 * The live preview beside the badge editor (issue 13): the current HTML rendered by the server
 * for the sample person or anyone of the current action, on any page size, as HTML in a sandboxed
 * frame (an opaque origin: the admin's HTML never runs in the app) or as the server's PDF. It
 * renders a moment after typing stops, shows a spinner meanwhile, and keeps the last good render
 * when the current text cannot be rendered (with the reason).
 */
export function BadgeLivePreview({ html, pageSize }: BadgeLivePreviewProps) {
  const { t } = useTranslation();
  const sample = useSampleParams();
  const current = useCurrentAction();
  const [size, setSize] = useState<PageSize>(pageSize);
  useEffect(() => setSize(pageSize), [pageSize]);
  const [format, setFormat] = useState<PreviewFormat>('html');
  const [personValue, setPersonValue] = useState<string>(SAMPLE);
  const [search, setSearch] = useState('');
  const personId = personValue === SAMPLE ? null : Number(personValue);
  const person = usePersonParams(personId);
  const people = usePeopleSearch(search);
  const params = personId ? person.params : sample.params;
  // the sample is the current action's once it is known; a person once their data is in
  const waiting = current.isLoading || (personId !== null && !person.params);

  const [text] = useDebouncedValue(html, PREVIEW_DELAY_MS);
  const [rendered, setRendered] = useState<Rendered | null>(null);
  const [error, setError] = useState<unknown>(null);
  const [busy, setBusy] = useState(false);
  const paramsKey = JSON.stringify(params ?? null);
  const lastUrl = useRef<string | null>(null);

  // biome-ignore lint/correctness/useExhaustiveDependencies: paramsKey stands for params
  useEffect(() => {
    if (waiting || !text.trim()) {
      setBusy(false);
      return;
    }
    let current = true;
    const abort = new AbortController();
    setBusy(true);
    const body = { data: text, params, count: 1, pageSize: size };
    (async () => {
      try {
        if (format === 'html') {
          const page = await templateEngineApi.preview({ ...body, type: 'html' }, { signal: abort.signal });
          if (current) setRendered({ format: 'html', html: page, size });
        } else {
          const blob = await templateEngineApi.previewPdf(body);
          if (!current) return;
          const url = URL.createObjectURL(blob);
          if (lastUrl.current) URL.revokeObjectURL(lastUrl.current);
          lastUrl.current = url;
          setRendered({ format: 'pdf', url, size });
        }
        if (current) setError(null);
      } catch (err) {
        if (current && !(err instanceof DOMException && err.name === 'AbortError')) setError(err);
      } finally {
        if (current) setBusy(false);
      }
    })();
    return () => {
      current = false;
      abort.abort();
    };
  }, [text, paramsKey, size, format, waiting]);

  useEffect(
    () => () => {
      if (lastUrl.current) URL.revokeObjectURL(lastUrl.current);
    },
    [],
  );

  const personOptions = [
    { value: SAMPLE, label: t('badgeEditor.sample') },
    ...(people.data?.data ?? []).map((p) => ({
      value: String(p.id),
      label: `${p.firstname} ${p.lastname} (${p.email})`,
    })),
  ];
  // the chosen person stays in the list while another search shows others
  if (personId && !personOptions.some((o) => o.value === personValue) && person.params)
    personOptions.push({
      value: personValue,
      label: `${person.params.firstname ?? ''} ${person.params.lastname ?? ''} (${person.params.email ?? ''})`,
    });

  const frameStyle = {
    width: '100%',
    height: '70vh',
    border: '1px solid var(--mantine-color-gray-4)',
    background: '#fff',
    display: 'block',
  } as const;

  return (
    <Paper withBorder p="md" component="section" aria-labelledby="badge-live-preview-title">
      <Stack gap="sm">
        <Group justify="space-between" align="center">
          <Title order={2} size="h5" id="badge-live-preview-title">
            {t('badgeEditor.livePreview')}
          </Title>
          {busy && (
            <Group gap={6} role="status" aria-live="polite">
              <Loader size="xs" />
              <Text size="xs" c="dimmed">
                {t('badgeEditor.rendering')}
              </Text>
            </Group>
          )}
        </Group>
        <Select
          label={t('badgeEditor.person')}
          description={t('badgeEditor.personHint')}
          searchable
          allowDeselect={false}
          data={personOptions}
          value={personValue}
          onChange={(value) => setPersonValue(value ?? SAMPLE)}
          searchValue={search}
          onSearchChange={setSearch}
          filter={({ options }) => options}
          nothingFoundMessage={t('badgeEditor.noPeople')}
        />
        <Box>
          <Text size="sm" fw={500} id="badge-preview-size-label" mb={4}>
            {t('template.pageSize')}
          </Text>
          <SegmentedControl
            size="xs"
            fullWidth
            aria-labelledby="badge-preview-size-label"
            value={size}
            onChange={(value) => setSize(value as PageSize)}
            data={PAGE_SIZES_PRINT.map((s) => ({
              value: s,
              label: (
                <>
                  <span aria-hidden>{s}</span>
                  <VisuallyHidden>{pageSizeLabel(t, s)}</VisuallyHidden>
                </>
              ),
            }))}
          />
        </Box>
        <Box>
          <Text size="sm" fw={500} id="badge-preview-format-label" mb={4}>
            {t('badgeEditor.format')}
          </Text>
          <SegmentedControl
            size="xs"
            aria-labelledby="badge-preview-format-label"
            value={format}
            onChange={(value) => setFormat(value as PreviewFormat)}
            data={[
              { value: 'html', label: t('badgeEditor.formatHtml') },
              { value: 'pdf', label: t('badgeEditor.formatPdf') },
            ]}
          />
        </Box>
        {error !== null && (
          <Alert color="red" role="alert" title={t('templateEngine.previewError')}>
            <Text size="sm">{errorText(error, t('templateEngine.previewError'))}</Text>
            {rendered && (
              <Text size="xs" c="dimmed" mt={4}>
                {t('badgeEditor.staleNote')}
              </Text>
            )}
          </Alert>
        )}
        {!rendered && !busy && error === null && (
          <Text size="sm" c="dimmed">
            {t('badgeEditor.noPreview')}
          </Text>
        )}
        {rendered?.format === 'html' && (
          <iframe
            title={t('badgeEditor.frameHtml')}
            sandbox=""
            srcDoc={rendered.html}
            data-page-size={rendered.size}
            style={{ ...frameStyle, opacity: busy ? 0.6 : 1 }}
          />
        )}
        {rendered?.format === 'pdf' && (
          <>
            <iframe
              title={t('badgeEditor.framePdf')}
              src={rendered.url}
              data-page-size={rendered.size}
              style={{ ...frameStyle, opacity: busy ? 0.6 : 1 }}
            />
            <Anchor href={rendered.url} download="preview.pdf" size="sm">
              {t('badgeEditor.openPdf')}
            </Anchor>
          </>
        )}
      </Stack>
    </Paper>
  );
}
