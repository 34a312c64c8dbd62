import type { RightPair } from '@accredo/domain';
import {
  IconActivity,
  IconBuildingCommunity,
  IconCalendarEvent,
  IconCpu,
  IconFileDescription,
  IconForms,
  IconGauge,
  IconId,
  IconLayoutGrid,
  IconPhoto,
  IconPuzzle,
  IconQrcode,
  IconReport,
  IconRouteSquare,
  IconSettings,
  IconUsers,
  IconUsersGroup,
  IconWorld,
} from '@tabler/icons-react';
import type { ComponentType } from 'react';

export interface MenuLink {
  /** menu.* key */
  label: string;
  to: string;
  icon: ComponentType<{ size?: number | string; stroke?: number }>;
  /** any of these rights shows the entry (spec §6: lists of pairs, any match) */
  rights: RightPair[];
  /** without the right the entry is shown disabled with a 'not allowed' tooltip instead of hidden */
  disableWithoutRight?: boolean;
}

export interface MenuSection {
  /** menu.* key of the section heading; none for the top entries */
  label?: string;
  icon?: MenuLink['icon'];
  links: MenuLink[];
}

/** The left menu of spec §2 Layout, each entry with the right pairs of spec §6. */
export const ADMIN_MENU: MenuSection[] = [
  { links: [{ label: 'menu.dashboard', to: '/', icon: IconGauge, rights: [['dashboard', 'getDashboardData']] }] },
  {
    label: 'menu.accreditations',
    icon: IconId,
    links: [
      { label: 'menu.accreditationList', to: '/accreditation', icon: IconId, rights: [['user', 'getUser']] },
      {
        label: 'menu.accreditationCheck',
        to: '/accreditation/check',
        icon: IconQrcode,
        rights: [['user', 'checkUser']],
      },
    ],
  },
  {
    label: 'menu.actions',
    icon: IconCalendarEvent,
    links: [
      { label: 'menu.actionList', to: '/action', icon: IconCalendarEvent, rights: [['action', 'get']] },
      {
        label: 'menu.actionExtension',
        to: '/action-extension',
        icon: IconPuzzle,
        rights: [['actionExtension', 'get']],
        disableWithoutRight: true,
      },
    ],
  },
  { links: [{ label: 'menu.gallery', to: '/gallery', icon: IconPhoto, rights: [['image', 'get']] }] },
  {
    label: 'menu.groupsAndZones',
    icon: IconUsersGroup,
    links: [
      { label: 'menu.groups', to: '/groups', icon: IconUsersGroup, rights: [['groups', 'get']] },
      { label: 'menu.zones', to: '/zone', icon: IconLayoutGrid, rights: [['zone', 'get']] },
    ],
  },
  { links: [{ label: 'menu.customFields', to: '/custom-field', icon: IconForms, rights: [['customField', 'get']] }] },
  {
    label: 'menu.devices',
    icon: IconCpu,
    links: [
      {
        label: 'menu.deviceSettings',
        to: '/device/settings',
        icon: IconSettings,
        rights: [['device', 'getDeviceKey']],
      },
      { label: 'menu.deviceList', to: '/device', icon: IconCpu, rights: [['device', 'getDevice']] },
      { label: 'menu.deviceRules', to: '/device/rules', icon: IconRouteSquare, rights: [['deviceTemplate', 'get']] },
      { label: 'menu.deviceReports', to: '/device/report', icon: IconReport, rights: [['report', 'getReport']] },
      { label: 'menu.deviceLive', to: '/device/live', icon: IconActivity, rights: [['report', 'getReport']] },
    ],
  },
  {
    label: 'menu.settings',
    icon: IconSettings,
    links: [
      { label: 'menu.subject', to: '/subject', icon: IconBuildingCommunity, rights: [['subject', 'get']] },
      { label: 'menu.adminUsers', to: '/admin-user', icon: IconUsers, rights: [['adminUser', 'get']] },
      { label: 'menu.webChannels', to: '/web-channel', icon: IconWorld, rights: [['webChannel', 'get']] },
      {
        label: 'menu.templates',
        to: '/template',
        icon: IconFileDescription,
        rights: [
          ['template', 'get'],
          ['mailTemplate', 'get'],
        ],
      },
    ],
  },
];
