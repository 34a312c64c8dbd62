import { creditChangeSchema, hasRight } from '@accredo/domain';
import { Alert, Group, NumberInput, Paper, Stack, Switch, Table, Text, Title } from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { type CreditInfo, accreditationApi, creditKey } from '../../../api/accreditation';
import { isApiError } from '../../../api/client';
import { useAdminSession } from '../../../app/admin-session';
import { notifyError, notifySuccess } from '../../../app/notify';
import { LoadingState } from '../../../components/loading-state';
import { WorkingButton } from '../../../components/working-button';

/** Spec §9: credit is shown in Kč. */
export function formatCredit(value: number | null, language: string): string {
  return `${new Intl.NumberFormat(language).format(value ?? 0)} Kč`;
}

function formatDate(value: string, language: string): string {
  const date = new Date(value);
  if (Number.isNaN(date.getTime())) return value;
  return new Intl.DateTimeFormat(language, { dateStyle: 'short', timeStyle: 'short' }).format(date);
}

/**
 * The credit tab of an accreditation (spec §2, §3 Credit transaction, §7 user-credit, §9): the
 * balance (null shows 0, unlimited shows its text), the history, and adding or removing an amount.
 */
export function CreditTab({ userId }: { userId: number }) {
  const { t, i18n } = useTranslation();
  const session = useAdminSession();
  const queryClient = useQueryClient();
  const canChange = hasRight(session, 'userCreditTransaction', 'updateCredit');
  const query = useQuery({ queryKey: creditKey(userId), queryFn: () => accreditationApi.credit(userId) });
  const [amount, setAmount] = useState<number | string>('');
  const [error, setError] = useState<string | null>(null);

  const failed = query.isError;
  useEffect(() => {
    if (failed) notifyError('credit.historyLoadError');
  }, [failed]);

  const change = useMutation({
    mutationFn: (body: { price: number; type: 1 | 3 }) => accreditationApi.changeCredit(userId, body),
    onSuccess: (info: CreditInfo) => {
      queryClient.setQueryData(creditKey(userId), info);
      setAmount('');
      notifySuccess('credit.changed');
    },
    onError: (err) => {
      if (isApiError(err, 'CREDIT_NOT_ENOUGH')) {
        setError('credit.notEnough');
        notifyError('credit.notEnough');
      } else if (isApiError(err, 'VALIDATION_ERROR')) {
        setError(err.fields[0]?.key ?? 'credit.amountPositive');
        notifyError('credit.changeError');
      } else notifyError('credit.changeError');
    },
  });

  const unlimited = useMutation({
    mutationFn: (on: boolean) => accreditationApi.setUnlimited(userId, on),
    onSuccess: (info: CreditInfo) => {
      queryClient.setQueryData(creditKey(userId), info);
      notifySuccess('credit.changed');
    },
    onError: () => notifyError('credit.changeError'),
  });

  const submit = (type: 1 | 3) => {
    const parsed = creditChangeSchema.safeParse({ price: amount === '' ? undefined : amount, type });
    if (!parsed.success) {
      setError(parsed.error.issues[0]?.message ?? 'credit.amountPositive');
      return;
    }
    setError(null);
    change.mutate(parsed.data);
  };

  if (query.isPending) return <LoadingState />;
  if (query.isError)
    return (
      <Alert color="red" role="alert">
        {t('credit.historyLoadError')}
      </Alert>
    );
  const info = query.data;
  const busyType = change.isPending ? change.variables?.type : undefined;

  return (
    <Stack gap="md">
      <Paper withBorder p="md">
        <Text size="sm" c="dimmed">
          {t('credit.balance')}
        </Text>
        <Text size="xl" fw={700} data-testid="credit-balance">
          {info.isUnlimited ? t('credit.unlimited') : formatCredit(info.credit, i18n.language)}
        </Text>
        {canChange && (
          <Switch
            mt="sm"
            label={t('credit.unlimitedSwitch')}
            description={t('credit.unlimitedHint')}
            checked={info.isUnlimited}
            disabled={unlimited.isPending}
            onChange={(event) => unlimited.mutate(event.currentTarget.checked)}
          />
        )}
      </Paper>

      {canChange && (
        <form
          noValidate
          onSubmit={(event) => {
            event.preventDefault();
            submit(1);
          }}
        >
          <Group align="flex-start" gap="sm">
            <NumberInput
              label={t('credit.amount')}
              suffix=" Kč"
              min={1}
              allowDecimal={false}
              allowNegative={false}
              required
              value={amount}
              onChange={(value) => {
                setAmount(value);
                setError(null);
              }}
              error={error ? t(error) : undefined}
              w={200}
            />
            <WorkingButton type="submit" mt={25} busy={busyType === 1} disabled={change.isPending}>
              {t('credit.add')}
            </WorkingButton>
            <WorkingButton
              type="button"
              mt={25}
              color="red"
              variant="light"
              busy={busyType === 3}
              disabled={change.isPending}
              onClick={() => submit(3)}
            >
              {t('credit.remove')}
            </WorkingButton>
          </Group>
        </form>
      )}

      <Title order={2} size="h4">
        {t('credit.history')}
      </Title>
      {info.history.length === 0 ? (
        <Text size="sm" c="dimmed">
          {t('credit.noHistory')}
        </Text>
      ) : (
        <Table.ScrollContainer minWidth={560}>
          <Table striped aria-label={t('credit.history')}>
            <Table.Thead>
              <Table.Tr>
                <Table.Th>{t('credit.date')}</Table.Th>
                <Table.Th>{t('credit.type')}</Table.Th>
                <Table.Th>{t('credit.device')}</Table.Th>
                <Table.Th>{t('credit.adminUser')}</Table.Th>
                <Table.Th ta="right">{t('credit.price')}</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {info.history.map((entry, index) => (
                // History rows have no id of their own; date + index is stable for a loaded list.
                // biome-ignore lint/suspicious/noArrayIndexKey: rows have no id
                <Table.Tr key={`${entry.date}-${index}`}>
                  <Table.Td>{formatDate(entry.date, i18n.language)}</Table.Td>
                  <Table.Td>{t(`credit.type${entry.type}`)}</Table.Td>
                  <Table.Td>{entry.device || t('basics.dash')}</Table.Td>
                  <Table.Td>{entry.adminUser || t('basics.dash')}</Table.Td>
                  <Table.Td ta="right">{formatCredit(entry.price, i18n.language)}</Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      )}
    </Stack>
  );
}
