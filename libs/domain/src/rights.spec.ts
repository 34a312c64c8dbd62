import { describe, expect, it } from 'vitest';
import { allRightPairs, buildRights, hasAnyRight, hasRight, normalizeRights } from './rights.js';

describe('rights', () => {
  it('covers every pair of spec §6', () => {
    const pairs = allRightPairs().map((p) => p.join('.'));
    expect(pairs).toContain('user.goToPreview');
    expect(pairs).toContain('mailTemplate.testMailTemplate');
    expect(pairs).toContain('adminUser.getActualAdminUser');
    expect(new Set(pairs).size).toBe(pairs.length);
    // 69 of spec §6 plus the 9 delete pairs of issue 15 (docs/rights.md)
    expect(pairs).toContain('groups.delete');
    expect(pairs.length).toBe(78);
  });

  it('superuser and manageuser hold every right; others need rights[page][action].is', () => {
    expect(hasRight({ superuser: true }, 'adminUser', 'create')).toBe(true);
    expect(hasRight({ manageuser: true }, 'adminUser', 'create')).toBe(true);
    const rights = buildRights(([page, action]) => page === 'adminUser' && action === 'get');
    expect(hasRight({ rights }, 'adminUser', 'get')).toBe(true);
    expect(hasRight({ rights }, 'adminUser', 'create')).toBe(false);
    expect(hasRight(null, 'adminUser', 'get')).toBe(false);
    expect(
      hasAnyRight({ rights }, [
        ['subject', 'get'],
        ['adminUser', 'get'],
      ]),
    ).toBe(true);
  });

  it('normalises submitted rights to the catalogue, dropping unknown pairs', () => {
    const rights = normalizeRights({ adminUser: { get: { is: true }, hack: { is: true } }, evil: { x: { is: true } } });
    expect(rights.adminUser.get.is).toBe(true);
    expect(rights.adminUser.hack).toBeUndefined();
    expect(rights.evil).toBeUndefined();
    expect(rights.user.getUser.is).toBe(false);
  });
});
