import {
  IconAlertTriangle,
  IconCertificateOff,
  IconCircleCheck,
  IconKey,
  IconPlugConnectedX,
  IconRefresh,
  IconWifiOff,
  type TablerIcon,
} from '@tabler/icons-react';
import type { DeskStatus, DeskStatusState } from '../../../shared/desk-api';
import { finishingWords, percentSoFar, recordsSoFar } from '../lib/sync-progress';

export interface StatusLook {
  label: string;
  color: string;
  icon: TablerIcon;
  /** What a volunteer can do about it. */
  advice: string;
}

export const STATUS_LOOKS: Readonly<Record<DeskStatusState, StatusLook>> = {
  'not-connected': {
    label: 'Not connected',
    color: 'gray',
    icon: IconPlugConnectedX,
    advice:
      'This desk has no server yet. Connect it to your shelter’s server to bring in pets and people, or run your shelter on this computer (Settings).',
  },
  offline: {
    label: 'Offline',
    color: 'orange',
    icon: IconWifiOff,
    advice: 'The server cannot be reached. Keep working: changes wait on this desk and are sent later.',
  },
  connecting: {
    label: 'Connecting',
    color: 'blue',
    icon: IconRefresh,
    advice: 'Reaching your server…',
  },
  syncing: {
    label: 'Syncing',
    color: 'blue',
    icon: IconRefresh,
    advice: 'Bringing this desk up to date. You can keep working meanwhile.',
  },
  idle: {
    label: 'Up to date',
    color: 'sage',
    icon: IconCircleCheck,
    advice: 'This desk has everything the server has.',
  },
  error: {
    label: 'Sync problem',
    color: 'red',
    icon: IconAlertTriangle,
    advice: 'The last sync did not finish. The details below say why.',
  },
  'needs-auth': {
    label: 'Key refused',
    color: 'red',
    icon: IconKey,
    advice: 'The server refused this desk’s API key. Enter a valid key under Settings.',
  },
};

/** A paired desk's two refusals, told apart from a plain refused key by their codes. */
const PAIRED_REFUSALS: Readonly<Record<string, StatusLook>> = {
  desk_disconnected: {
    label: 'Disconnected by the shelter',
    color: 'red',
    icon: IconPlugConnectedX,
    advice:
      'The shelter revoked this desk’s key. Changes made here wait on this desk. Ask the shelter desk for a new code to connect again.',
  },
  certificate_mismatch: {
    label: 'Certificate refused',
    color: 'red',
    icon: IconCertificateOff,
    advice:
      'The shelter answered with another certificate than the one this desk paired with, so nothing was sent. Someone may be listening in on this network.',
  },
};

/**
 * A standalone desk's own words once it has nothing running: it keeps the shelter's records itself, so there is no
 * server to be in step with, only changes made here that are recorded, on their way, or refused.
 */
function standaloneLook(status: DeskStatus): StatusLook | undefined {
  if (status.state === 'error') {
    return {
      ...STATUS_LOOKS.error,
      label: 'Records problem',
      advice:
        'This desk could not read the shelter’s records just now. It tries again by itself; Sync says why.',
    };
  }
  if (status.state !== 'idle') return undefined;
  const { pending, needsAttention } = status;
  if (needsAttention > 0) {
    return {
      ...STATUS_LOOKS.idle,
      label: 'Needs a look',
      color: 'orange',
      advice: `The shelter’s records refused ${needsAttention === 1 ? 'a change' : `${needsAttention} changes`} made on this desk: the changes list on Sync says why.`,
    };
  }
  if (pending > 0) {
    return {
      ...STATUS_LOOKS.syncing,
      label: 'Recording',
      advice: `${pending === 1 ? 'A change' : `${pending} changes`} made on this desk ${pending === 1 ? 'is' : 'are'} going into the shelter’s records.`,
    };
  }
  return {
    ...STATUS_LOOKS.idle,
    label: 'All recorded',
    advice: 'Every change made on this desk is in the shelter’s records.',
  };
}

/**
 * How the status looks: by its state, or by the refusal a paired desk met, in a standalone desk's own words where
 * `standalone`. Up to date with changes the server refused says so: the desk holds everything the server has, not
 * everything made here.
 */
export function lookOf(status: DeskStatus, standalone = false): StatusLook {
  const own = standalone ? standaloneLook(status) : undefined;
  if (own) return own;
  const refusal =
    status.state === 'needs-auth' && status.error ? PAIRED_REFUSALS[status.error.code] : undefined;
  if (refusal) return refusal;
  const refused = status.needsAttention;
  if (status.state === 'idle' && refused > 0) {
    return {
      ...STATUS_LOOKS.idle,
      color: 'orange',
      advice: `This desk has everything the server has, but the server refused ${refused === 1 ? 'a change' : `${refused} changes`} made here: see Sync.`,
    };
  }
  return STATUS_LOOKS[status.state];
}

/** "3 minutes ago"-style text for a date-time, or "never". */
export function describeWhen(iso: string | null, now: number = Date.now()): string {
  if (!iso) return 'never';
  const at = Date.parse(iso);
  if (Number.isNaN(at)) return iso;
  const seconds = Math.round((now - at) / 1000);
  if (seconds < 45) return 'just now';
  const format = new Intl.RelativeTimeFormat(undefined, { numeric: 'auto' });
  if (seconds < 3600) return format.format(-Math.round(seconds / 60), 'minute');
  if (seconds < 86_400) return format.format(-Math.round(seconds / 3600), 'hour');
  return new Date(at).toLocaleString();
}

/** One short line for the header, e.g. "Syncing · Pets 120 of 480". */
export function statusLine(status: DeskStatus, standalone = false): string {
  const { label, progress } = statusParts(status, standalone);
  return progress ? `${label} · ${progress}` : label;
}

/** The status line's two parts: what the desk is doing, and how far a sync has got (undefined when none is under way). */
export function statusParts(
  status: DeskStatus,
  standalone = false,
): { label: string; progress: string | undefined } {
  const look = lookOf(status, standalone);
  // A sync that read the server but could not prove it holds everything: the mirror may be behind.
  if (status.state === 'error' && status.error?.code === 'sync_incomplete') {
    return { label: 'Not up to date', progress: undefined };
  }
  const progress = status.progress;
  if (status.state === 'syncing' && progress) {
    const finishing = finishingWords(progress);
    const percent = percentSoFar(progress);
    if (finishing) {
      return {
        label: look.label,
        progress: percent === undefined ? finishing : `${finishing} ${Math.floor(percent)}%`,
      };
    }
    return { label: look.label, progress: `${progress.phase} ${recordsSoFar(progress)}` };
  }
  return { label: look.label, progress: undefined };
}
