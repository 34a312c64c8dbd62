import type { Session } from '@accredo/domain';
import { Select } from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { adminApi, setAdminToken } from '../../api/admin';
import { STORAGE_KEYS, writeStorage } from '../../api/storage';
import { ADMIN_SESSION_KEY } from '../../app/admin-session';
import { notifyError, notifySuccess } from '../../app/notify';

/** Switches the current subject (manage-user only, spec §2): resets the action and filter, then goes to /. */
export function SubjectSwitcher({ session }: { session: Session }) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const subjects = useQuery({ queryKey: ['admin', 'subject-all'], queryFn: adminApi.subjectsAll });
  const change = useMutation({
    mutationFn: (subjectId: number) => adminApi.switchSubject(subjectId),
    onSuccess: (next) => {
      setAdminToken(next.token);
      writeStorage(STORAGE_KEYS.currentAction, null);
      writeStorage(STORAGE_KEYS.userFilter, null);
      queryClient.removeQueries({ predicate: (q) => q.queryKey[0] === 'admin' && q.queryKey[1] !== 'session' });
      queryClient.setQueryData(ADMIN_SESSION_KEY, next);
      notifySuccess('subject.changedSubject');
      navigate('/');
    },
    onError: () => notifyError('subject.errorChangeSubject'),
  });

  const data = (subjects.data ?? [session.subject]).map((s) => ({ value: s.id, label: s.name }));
  return (
    <Select<number>
      label={t('subject.switcher')}
      size="xs"
      w={200}
      searchable
      allowDeselect={false}
      disabled={change.isPending}
      data={data}
      value={session.subject.id}
      onChange={(value) => {
        if (value !== null && value !== session.subject.id) change.mutate(value);
      }}
    />
  );
}
