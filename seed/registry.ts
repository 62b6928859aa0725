import type { Db } from '../server/src/db/client';

/**
 * Demo rows contributed by an area (accounts, numbers, templates…), run after the demo users exist. `db` is
 * the demo's one transaction: a seeder that throws leaves no demo at all behind.
 */
export type DemoSeeder = (db: Db, demoUsers: Record<string, number>) => Promise<void> | void;

export const demoSeeders: DemoSeeder[] = [];
