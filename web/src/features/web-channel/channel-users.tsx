import { normalizeLogin, REQUIRED } from '@accredo/domain';
import { Button, Group, PasswordInput, Stack, Switch, Text, TextInput } from '@mantine/core';
import { IconPencil, IconPlus, IconTrash } from '@tabler/icons-react';
import { useState } from 'react';
import { useFieldArray } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { DataTable, type DataTableColumn } from '../../components/data-table';
import type { ChannelUserValues } from './form-values';
import { enterApplies, RowDialog, RowIcon, RowText } from './row-dialog';
import type { ChannelForm } from './web-channel-detail-page';

interface UserRow extends ChannelUserValues {
  index: number;
  _key: string;
}

/**
 * Login users of a channel (spec §3 users, §5 Web channel user): a table with an add/edit dialog;
 * the password is set only when a user is created. A user not saved yet can be removed again.
 */
export function ChannelUsers({
  form,
  fieldError,
}: {
  form: ChannelForm;
  fieldError: (name: string) => string | undefined;
}) {
  const { t } = useTranslation();
  const { fields, append, update, remove } = useFieldArray({ control: form.control, name: 'users', keyName: '_key' });
  const [editing, setEditing] = useState<number | 'new' | null>(null);
  const rows: UserRow[] = fields.map((f, index) => ({ ...f, index }));
  const listError = fieldError('users');

  const columns: DataTableColumn<UserRow>[] = [
    {
      key: 'login',
      header: t('webChannel.userLogin'),
      render: (u) => (
        <RowText
          text={u.login}
          error={fieldError(`users.${u.index}.login`) ?? fieldError(`users.${u.index}.password`)}
        />
      ),
    },
    {
      key: 'active',
      header: t('basics.active'),
      render: (u) => (u.active ? t('basics.yes') : t('basics.no')),
    },
    {
      key: 'state',
      header: t('webChannel.userState'),
      render: (u) => (u.id ? t('webChannel.userSaved') : t('webChannel.userNew')),
    },
    {
      key: 'options',
      header: t('basics.options'),
      render: (u) => (
        <Group gap={4} wrap="nowrap">
          <RowIcon
            label={t('basics.edit')}
            name={u.login}
            icon={<IconPencil size={16} />}
            onClick={() => setEditing(u.index)}
          />
          {!u.id && (
            <RowIcon
              label={t('basics.remove')}
              name={u.login}
              icon={<IconTrash size={16} />}
              color="red"
              onClick={() => remove(u.index)}
            />
          )}
        </Group>
      ),
    },
  ];

  const others = (index: number | 'new') =>
    form
      .getValues('users')
      .filter((_, i) => i !== index)
      .map((u) => normalizeLogin(u.login));

  return (
    <Stack gap="sm">
      <Group justify="space-between">
        <Text fw={500}>{t('webChannel.users')}</Text>
        <Button variant="default" leftSection={<IconPlus size={16} />} onClick={() => setEditing('new')}>
          {t('webChannel.addUser')}
        </Button>
      </Group>
      {listError && (
        <Text size="sm" c="red" role="alert">
          {listError}
        </Text>
      )}
      <DataTable
        label={t('webChannel.users')}
        columns={columns}
        rows={rows}
        getRowId={(u) => u._key}
        onOpen={(u) => setEditing(u.index)}
        emptyText={t('webChannel.noUsers')}
      />
      <UserModal
        key={String(editing)}
        opened={editing !== null}
        user={typeof editing === 'number' ? form.getValues(`users.${editing}`) : undefined}
        takenLogins={editing === null ? [] : others(editing)}
        onClose={() => setEditing(null)}
        onSave={(user) => {
          if (typeof editing === 'number') update(editing, user);
          else append(user);
          void form.trigger('users');
          setEditing(null);
        }}
      />
    </Stack>
  );
}

/** Add or edit one login user: login, password (only when creating), active. */
function UserModal({
  opened,
  user,
  takenLogins,
  onClose,
  onSave,
}: {
  opened: boolean;
  user?: ChannelUserValues;
  takenLogins: string[];
  onClose: () => void;
  onSave: (user: ChannelUserValues) => void;
}) {
  const { t } = useTranslation();
  const isNew = !user?.id;
  const [login, setLogin] = useState(user?.login ?? '');
  const [password, setPassword] = useState(user?.password ?? '');
  const [active, setActive] = useState(user?.active ?? true);
  const [errors, setErrors] = useState<{ login?: string; password?: string }>({});

  const submit = () => {
    const next: typeof errors = {};
    const normalized = normalizeLogin(login);
    if (!normalized) next.login = REQUIRED;
    else if (takenLogins.includes(normalized)) next.login = 'webChannelRules.userLoginExists';
    if (isNew && !password.trim()) next.password = REQUIRED;
    setErrors(next);
    if (Object.keys(next).length > 0) return;
    onSave({ id: user?.id ?? null, login: normalized, password: isNew ? password : '', active });
  };
  const onEnter = enterApplies(submit);

  return (
    <RowDialog
      opened={opened}
      onClose={onClose}
      title={isNew && !user ? t('webChannel.addUser') : t('webChannel.editUser')}
      onApply={submit}
    >
      <TextInput
        label={t('webChannel.userLogin')}
        required
        data-autofocus
        onKeyDown={onEnter}
        autoComplete="off"
        value={login}
        onChange={(e) => setLogin(e.currentTarget.value)}
        error={errors.login ? t(errors.login) : undefined}
      />
      {isNew && (
        <PasswordInput
          label={t('webChannel.userPassword')}
          description={t('webChannel.userPasswordHint')}
          required
          autoComplete="new-password"
          onKeyDown={onEnter}
          value={password}
          onChange={(e) => setPassword(e.currentTarget.value)}
          error={errors.password ? t(errors.password) : undefined}
        />
      )}
      <Switch label={t('basics.active')} checked={active} onChange={(e) => setActive(e.currentTarget.checked)} />
    </RowDialog>
  );
}
