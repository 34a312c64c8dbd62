import { Anchor } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';

/** The Edit link of a list row, named after the record for screen readers ("Edit: Staff"). */
export function EditLink({ to, name }: { to: string; name: string }) {
  const { t } = useTranslation();
  return (
    <Anchor component={Link} to={to} size="sm" aria-label={`${t('basics.edit')}: ${name}`}>
      {t('basics.edit')}
    </Anchor>
  );
}
