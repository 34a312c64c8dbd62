import { hasRight, type Session } from '@accredo/domain';
import { ActionIcon, Menu } from '@mantine/core';
import { IconLogout, IconUser, IconUserCircle } from '@tabler/icons-react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router';
import { adminApi } from '../../api/admin';
import { clearAdminSession } from '../../api/storage';
import { notifyError } from '../../app/notify';

/** Profile (needs getActualAdminUser) and logout; a failed logout keeps the user signed in (spec §8). */
export function UserMenu({ session }: { session: Session }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const logout = useMutation({
    mutationFn: adminApi.logout,
    onSuccess: () => {
      clearAdminSession();
      queryClient.clear();
      navigate('/login');
    },
    onError: () => notifyError('basics.logoutError'),
  });

  return (
    <Menu position="bottom-end" withinPortal>
      <Menu.Target>
        <ActionIcon variant="default" size="lg" aria-label={t('layout.userMenu')}>
          <IconUserCircle size={20} />
        </ActionIcon>
      </Menu.Target>
      <Menu.Dropdown>
        {hasRight(session, 'adminUser', 'getActualAdminUser') && (
          <Menu.Item component={Link} to="/user-profile" leftSection={<IconUser size={16} />}>
            {t('menu.profile')}
          </Menu.Item>
        )}
        <Menu.Item
          leftSection={<IconLogout size={16} />}
          onClick={() => logout.mutate()}
          disabled={logout.isPending}
          closeMenuOnClick
        >
          {logout.isPending ? t('basics.working') : t('basics.logout')}
        </Menu.Item>
      </Menu.Dropdown>
    </Menu>
  );
}
