import type { DeskApi, ImportKind, ImportPreview } from '../../../shared/desk-api';

/** Bytes per upload call: its base64 stays well under the bridge's 1 MiB call limit. */
const PIECE_BYTES = 480 * 1024;

function toBase64(bytes: Uint8Array): string {
  let binary = '';
  // In slices: one String.fromCharCode call per byte would overflow the argument list.
  for (let index = 0; index < bytes.length; index += 0x8000) {
    binary += String.fromCharCode(...bytes.subarray(index, index + 0x8000));
  }
  return btoa(binary);
}

/**
 * Hands a chosen or dropped file to the desk in pieces (the bridge carries JSON) and resolves the desk's first
 * reading of it: columns, the first rows and the suggested mapping. `onProgress` gets the share sent, 0 to 1.
 */
export async function uploadFile(
  api: DeskApi,
  file: File,
  kind: ImportKind,
  onProgress: (share: number) => void,
): Promise<ImportPreview> {
  const bytes = new Uint8Array(await file.arrayBuffer());
  let token: string | undefined;
  let offset = 0;
  do {
    const piece = bytes.subarray(offset, offset + PIECE_BYTES);
    offset += piece.length;
    const done = offset >= bytes.length;
    const answer = await api.call('import.upload', {
      ...(token && { token }),
      fileName: file.name,
      base64: toBase64(piece),
      done,
      kind,
    });
    token = answer.token;
    onProgress(bytes.length === 0 ? 1 : offset / bytes.length);
    if (done) {
      if (!answer.preview) throw new Error('The desk did not read the file.');
      return answer.preview;
    }
  } while (offset < bytes.length);
  throw new Error('The file is empty.');
}
