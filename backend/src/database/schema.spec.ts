import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, TEST_DB, type TestApp } from '../testing/test-app.js';

/** The migrations and the entities describe the same schema (the `migration:generate --check` of CI). */
describe(`database schema on ${TEST_DB}`, () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  it('has no difference between entities and migrations', async () => {
    const sql = await t.ds.driver.createSchemaBuilder().log();
    expect(sql.upQueries.map((q) => q.query)).toEqual([]);
  });

  it('has run every migration', async () => {
    expect(await t.ds.showMigrations()).toBe(false);
  });
});
