import { RIGHT_PAGES, RIGHTS_CATALOGUE, type Rights } from '@accredo/domain';
import { Checkbox, Fieldset, SimpleGrid, Stack } from '@mantine/core';
import { useTranslation } from 'react-i18next';

export interface RightsEditorProps {
  value: Rights;
  onChange: (value: Rights) => void;
  disabled?: boolean;
}

const isOn = (rights: Rights, page: string, action: string) => rights[page]?.[action]?.is === true;

/**
 * The rights grid (spec §6): one group per page labelled `rightsPage.<page>`, a checkbox per action
 * labelled `rights.<page>.<action>`, and a select-all per page.
 */
export function RightsEditor({ value, onChange, disabled = false }: RightsEditorProps) {
  const { t } = useTranslation();

  const setPage = (page: string, actions: readonly string[], on: boolean) => {
    const next: Rights = { ...value, [page]: { ...value[page] } };
    for (const action of actions) next[page][action] = { is: on };
    onChange(next);
  };

  return (
    <SimpleGrid cols={{ base: 1, sm: 2, lg: 3 }} spacing="md">
      {RIGHT_PAGES.map((page) => {
        const actions = RIGHTS_CATALOGUE[page] as readonly string[];
        const onCount = actions.filter((action) => isOn(value, page, action)).length;
        const pageLabel = t(`rightsPage.${page}`);
        return (
          <Fieldset key={page} legend={pageLabel} disabled={disabled} variant="filled">
            <Stack gap={6}>
              <Checkbox
                label={t('adminUser.selectAll')}
                aria-label={`${t('adminUser.selectAll')}: ${pageLabel}`}
                fw={600}
                checked={onCount === actions.length}
                indeterminate={onCount > 0 && onCount < actions.length}
                onChange={(event) => setPage(page, actions, event.currentTarget.checked)}
              />
              {actions.map((action) => (
                <Checkbox
                  key={action}
                  label={t(`rights.${page}.${action}`)}
                  checked={isOn(value, page, action)}
                  onChange={(event) => setPage(page, [action], event.currentTarget.checked)}
                />
              ))}
            </Stack>
          </Fieldset>
        );
      })}
    </SimpleGrid>
  );
}
