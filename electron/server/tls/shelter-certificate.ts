import { createHash, webcrypto, X509Certificate } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type * as X509 from '@peculiar/x509';
import { writeFileAtomic } from '../../platform/atomic-file';
import { installReflectMetadata } from './reflect-metadata';

/** The shelter's TLS identity for sharing over the LAN: a self-signed certificate and its private key, in PEM. */
export interface ShelterCertificate {
  cert: string;
  key: string;
  /** SHA-256 of the certificate's DER bytes, base64url: what pairing codes carry and desks pin. */
  fingerprint: string;
}

/** The file in a server's data folder holding the certificate and key (owner-only: the key is in it). */
export const CERTIFICATE_FILE = 'lan-tls.json';

/** Lifetime of a generated certificate. Desks pin the certificate itself, so its dates carry no trust. */
const VALID_YEARS = 20;

let loaded: Promise<typeof X509> | undefined;

/** @peculiar/x509, loaded on first use (after the metadata API it needs), on Node's Web Crypto. */
function loadX509(): Promise<typeof X509> {
  loaded ??= (async () => {
    installReflectMetadata();
    const loadedModule = await import('@peculiar/x509');
    // Bundled as CommonJS (the command line's esbuild build), the library sits under `default`.
    const x509 =
      'cryptoProvider' in loadedModule
        ? loadedModule
        : (loadedModule as unknown as { default: typeof X509 }).default;
    x509.cryptoProvider.set(webcrypto as unknown as Parameters<typeof x509.cryptoProvider.set>[0]);
    return x509;
  })();
  return loaded;
}

/** SHA-256 of a certificate's DER bytes, base64url (43 characters). */
export function certificateFingerprint(certPem: string): string {
  return createHash('sha256').update(new X509Certificate(certPem).raw).digest('base64url');
}

function pem(label: string, der: ArrayBuffer): string {
  const base64 = Buffer.from(der).toString('base64');
  const lines = base64.match(/.{1,64}/g) ?? [];
  return `-----BEGIN ${label}-----\n${lines.join('\n')}\n-----END ${label}-----\n`;
}

/** A new self-signed ECDSA P-256 certificate for the shelter's LAN listener. */
export async function generateShelterCertificate(now = new Date()): Promise<ShelterCertificate> {
  const x509 = await loadX509();
  const algorithm = { name: 'ECDSA', namedCurve: 'P-256', hash: 'SHA-256' };
  const keys = (await webcrypto.subtle.generateKey(algorithm, true, [
    'sign',
    'verify',
  ])) as webcrypto.CryptoKeyPair;
  const notAfter = new Date(now);
  notAfter.setUTCFullYear(notAfter.getUTCFullYear() + VALID_YEARS);
  const certificate = await x509.X509CertificateGenerator.createSelfSigned({
    serialNumber: Buffer.from(webcrypto.getRandomValues(new Uint8Array(16))).toString('hex'),
    name: 'CN=Shelter Desk shelter, O=Shelter Desk',
    notBefore: new Date(now.getTime() - 60 * 60 * 1000),
    notAfter,
    signingAlgorithm: algorithm,
    keys: keys as unknown as Parameters<typeof x509.X509CertificateGenerator.createSelfSigned>[0]['keys'],
    extensions: [
      new x509.BasicConstraintsExtension(false, undefined, true),
      new x509.KeyUsagesExtension(x509.KeyUsageFlags.digitalSignature, true),
      new x509.ExtendedKeyUsageExtension([x509.ExtendedKeyUsage.serverAuth]),
    ],
  });
  const cert = certificate.toString('pem');
  const key = pem('PRIVATE KEY', await webcrypto.subtle.exportKey('pkcs8', keys.privateKey));
  return { cert, key, fingerprint: certificateFingerprint(cert) };
}

/** The certificate kept in `dataDir`, or undefined when there is none (or it cannot be read as one). */
export function readShelterCertificate(dataDir: string): ShelterCertificate | undefined {
  try {
    const stored = JSON.parse(fs.readFileSync(path.join(dataDir, CERTIFICATE_FILE), 'utf8')) as {
      cert?: unknown;
      key?: unknown;
    };
    if (typeof stored.cert !== 'string' || typeof stored.key !== 'string') return undefined;
    return { cert: stored.cert, key: stored.key, fingerprint: certificateFingerprint(stored.cert) };
  } catch {
    return undefined;
  }
}

/**
 * The shelter's certificate: the one kept in `dataDir`, or a new one made and kept there on first use (mode 0600,
 * in a folder of mode 0700). The same certificate serves every later start, so paired desks keep trusting it.
 */
export async function shelterCertificate(dataDir: string): Promise<ShelterCertificate> {
  const existing = readShelterCertificate(dataDir);
  if (existing) {
    fs.chmodSync(path.join(dataDir, CERTIFICATE_FILE), 0o600);
    return existing;
  }
  const created = await generateShelterCertificate();
  fs.mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  writeFileAtomic(
    path.join(dataDir, CERTIFICATE_FILE),
    `${JSON.stringify({ cert: created.cert, key: created.key }, null, 2)}\n`,
    0o600,
  );
  return created;
}
