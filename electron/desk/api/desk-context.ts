import type { DeskMode } from '../../../shared/desk-api';
import type { Logger } from '../../platform/log';
import type { SecretStore } from '../../platform/secret-store';
import type { EventHub } from './event-hub';
import type { SettingsStore } from './settings-store';
import type { StatusHub } from './status-hub';
import type { WindowActivity } from './window-activity';

/** What every feature's handlers get: the desk's shared services. */
export interface DeskContext {
  dataDir: string;
  mode: DeskMode;
  /** Why browser mode was chosen (one sentence); undefined on the desktop. */
  modeReason: string | undefined;
  appVersion: string;
  /** Electron and Chrome versions when running inside Electron. */
  shellVersions: { electron?: string; chrome?: string };
  secretStore: SecretStore;
  /** The desk's log (core.log on the desktop): ids, counts and outcomes only. */
  log: Logger;
  settings: SettingsStore;
  events: EventHub;
  status: StatusHub;
  /** The windows' calls, which the sync's reads give way to. */
  windowActivity: WindowActivity;
  /**
   * Registers cleanup to run when the desk closes (databases, timers, servers). Run in reverse order
   * of registration, so a feature opened later is closed first.
   */
  onClose(cleanup: () => void | Promise<void>): void;
  /**
   * Registers what runs when the core starts (`DeskCore.start()`): schedules, timers, background replays. Handlers
   * registered without starting answer calls all the same (the CLI uses the core this way, one call at a time).
   */
  onStart(start: () => void | Promise<void>): void;
}
