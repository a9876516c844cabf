import type { MirrorPet } from '../../../shared/desk-api';

/** Off the public list as the server says (a status that is not public too), or hidden by an edit made here. */
export const offPublicList = ({ record, presence }: Pick<MirrorPet, 'record' | 'presence'>): boolean =>
  presence === 'unlisted' || (!record.show_public && presence !== 'local');
