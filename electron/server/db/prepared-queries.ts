import { compileOnlyKysely } from '../../platform/prepared-queries';
import type { ServerSchema } from './rows';

export { PreparedQueries, positionalSql, positionalValues, slot } from '../../platform/prepared-queries';

/** The server schema's compile-only kysely: list queries composed from parts are built with it. */
export const queryBuilder = compileOnlyKysely<ServerSchema>();
