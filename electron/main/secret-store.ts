import { safeStorage } from 'electron';
import { FileSecretStore, type SecretStore } from '../platform/secret-store';

/**
 * The desktop app's secret store: values encrypted with the OS keychain through `safeStorage`
 * (Keychain, DPAPI, libsecret/kwallet). Where only Electron's "basic_text" fallback exists (Linux
 * without a keyring), that is not real encryption, so the owner-only file store is used instead.
 * Must be created after `app` is ready.
 */
export function createDesktopSecretStore(dataDir: string): SecretStore {
  const linuxWithoutKeyring =
    process.platform === 'linux' && safeStorage.getSelectedStorageBackend() === 'basic_text';
  if (!safeStorage.isEncryptionAvailable() || linuxWithoutKeyring) {
    console.warn('No OS keychain is available: secrets are kept in an owner-only file instead.');
    return new FileSecretStore(dataDir);
  }
  return new FileSecretStore(dataDir, {
    fileName: 'secrets.safe.json',
    protection: 'encrypted',
    codec: {
      encode: (value) => safeStorage.encryptString(value).toString('base64'),
      decode: (stored) => safeStorage.decryptString(Buffer.from(stored, 'base64')),
    },
  });
}
