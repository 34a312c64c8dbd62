import { Alert, Table, Text } from '@mantine/core';
import type { TFunction } from 'i18next';
import { useTranslation } from 'react-i18next';
import type { ImportRowError } from '../../../api/accreditation-files';

const CODE_KEY = 'accreditationImport.codes.';

/**
 * The message of one row error (spec §8 Import codes). The server sends the code and the row apart,
 * but a code with the row appended (EMPTY_EMAIL_ON_ROW_5) is read too. Unknown code: the generic
 * basics error; no code: errorAtImport.
 */
export function rowErrorMessage(t: TFunction, i18nExists: (key: string) => boolean, error: ImportRowError): string {
  const trimmed = error.code.trim();
  if (!trimmed) return t('accreditationImport.errorAtImport');
  const match = /^(.*_)(\d+)$/.exec(trimmed);
  const code = match && i18nExists(`${CODE_KEY}${match[1]}`) ? match[1] : trimmed;
  const row = Number.isFinite(error.row) && error.row > 0 ? error.row : match ? Number(match[2]) : error.row;
  if (i18nExists(`${CODE_KEY}${code}`)) return t(`${CODE_KEY}${code}`, { row });
  return `${t('accreditationImport.row')} ${row}: ${t('basics.unexpectedError')}`;
}

/** IMPORT_FAILED: nothing was imported; every row error with its row number. */
export function ImportRowErrors({ rows }: { rows: ImportRowError[] }) {
  const { t, i18n } = useTranslation();
  const exists = (key: string) => i18n.exists(key);
  return (
    <Alert color="red" role="alert" title={t('accreditationImport.failedTitle')} mt="md">
      {rows.length === 0 ? (
        <Text size="sm">{t('accreditationImport.errorAtImport')}</Text>
      ) : (
        <>
          <Text size="sm" mb="xs">
            {t('accreditationImport.failedIntro')}
          </Text>
          <Table striped withTableBorder aria-label={t('accreditationImport.rowErrors')}>
            <Table.Thead>
              <Table.Tr>
                <Table.Th w={90}>{t('accreditationImport.row')}</Table.Th>
                <Table.Th>{t('accreditationImport.message')}</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {rows.map((error, index) => (
                // the same row can fail for several codes, so the index keeps keys unique
                // biome-ignore lint/suspicious/noArrayIndexKey: rows are static once shown
                <Table.Tr key={`${error.row}-${error.code}-${index}`}>
                  <Table.Td>{Number.isFinite(error.row) ? error.row : ''}</Table.Td>
                  <Table.Td>{rowErrorMessage(t, exists, error)}</Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </>
      )}
    </Alert>
  );
}
