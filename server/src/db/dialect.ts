/** The store this process runs on; SQL fragments in ./raw are written for it. */
export type Dialect = 'sqlite' | 'postgres';

let active: Dialect = /^postgres(ql)?:\/\//i.test(process.env.DATABASE_URL ?? '') ? 'postgres' : 'sqlite';

export const activeDialect = (): Dialect => active;

/** Called by the code that opens a store. */
export function setActiveDialect(dialect: Dialect): void {
  active = dialect;
}
