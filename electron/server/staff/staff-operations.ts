import { commitThenSyncOffThread } from '../../platform/durable-commit';
import type { ServerContext } from '../server-context';
import { apiKeyOperations } from './api-keys';
import { applicationOperations } from './applications';
import { backupDatabase } from './backup';
import { contractOperations } from './contracts';
import { customFieldOperations } from './custom-fields';
import { customStatusOperations } from './custom-statuses';
import { feeRuleOperations } from './fee-rules';
import { photoSettingOperations } from './photo-settings';
import { recordOperations } from './records';
import { createStaffContext } from './staff-context';
import { veterinarianOperations } from './veterinarians';

export type { ApiKeyKind, ApiKeySummary } from './api-keys';
export type { ApplicationFilter, ApplicationSummary } from './applications';
export { type BackupInfo, BackupRefusedError } from './backup';
export type { CustomFieldInput, CustomFieldSectionInput } from './custom-fields';
export type { CustomStatus, CustomStatusInput } from './custom-statuses';
export type { FeeRuleInput } from './fee-rules';
export type { PhotoPublicOriginChange } from './photo-settings';
export { StaffOperationError } from './staff-context';
export type { PetTemplateInput, VeterinarianInput } from './veterinarians';

/**
 * The shelter-settings operations of standalone mode (the things the API only reads): plain typed functions
 * on the server database, no HTTP, one module per topic. Each runs in one transaction and bumps `updated_at`
 * of every pet or person whose API representation it changes, so incremental sync sees the change.
 */
export function createStaffOperations(app: ServerContext) {
  const staff = createStaffContext(app);
  return {
    ...customStatusOperations(staff),
    ...customFieldOperations(staff),
    ...feeRuleOperations(staff),
    ...contractOperations(staff),
    ...veterinarianOperations(staff),
    ...apiKeyOperations(staff),
    ...recordOperations(staff),
    ...applicationOperations(staff),
    ...photoSettingOperations(staff),
    /** An online backup of the database to `file` while the server keeps serving. */
    backup: (file: string) => backupDatabase(app.sqlite, file),
    /**
     * Re-stamps every pet and person (after restoring a backup from an older version, once its migrations have
     * run; the swap re-stamps a current one in the copy, `restampCopyOffThread`), so every desk pulls the restored
     * version of each record on its next incremental sync, even one it had seen with a later change. Commits the
     * jobs at once;
     * a shelter of more than 100 pets or people is re-stamped in short transactions after it (`settled()` of the
     * server waits for them; a job cut short by a stop carries on at the next start). Resolves, with how many
     * were re-stamped at once, when the jobs are on the disk; the event loop does not wait for it.
     */
    restampAll(): Promise<{ pets: number; people: number }> {
      return commitThenSyncOffThread(app.sqlite, () => ({
        pets: app.pets.touchWhere('1 = 1'),
        people: app.peopleRestamps.queueAll(),
      }));
    },
  };
}

/** The staff operations on one server database. */
export type StaffOperations = ReturnType<typeof createStaffOperations>;
