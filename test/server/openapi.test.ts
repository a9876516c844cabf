import { createConfig, lintFromString } from '@redocly/openapi-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningApiServer, startApiServer } from '../../electron/server';
import { call, tempDataDir, WRITE_KEY } from './harness';

let server: RunningApiServer;
beforeAll(async () => {
  server = await startApiServer({ dataDir: tempDataDir('shelter-openapi-'), writeKey: WRITE_KEY });
});
afterAll(async () => {
  await server.close();
});

describe('GET /api/openapi.json', () => {
  it('is served without a key, with metadata headers and an ETag', async () => {
    const response = await call(server.apiUrl, '/openapi.json', { key: null });
    expect(response.status).toBe(200);
    expect(response.headers.get('x-request-id')).toBeTruthy();
    expect(response.headers.get('etag')).toBeTruthy();
    expect(response.json.openapi).toBe('3.1.0');
    expect(response.json.info.version).toBe('1.5.0');
  });

  it('documents every endpoint and its status codes', async () => {
    const doc = (await call(server.apiUrl, '/openapi.json', { key: null })).json;
    expect(Object.keys(doc.paths).sort()).toEqual([
      '/api/adoption-fees',
      '/api/changes',
      '/api/contracts',
      '/api/off-list-pets',
      '/api/off-list-pets/records',
      '/api/pairing',
      '/api/people',
      '/api/people/custom-fields',
      '/api/people/{personId}',
      '/api/pets',
      '/api/pets/custom-fields',
      '/api/pets/{petIdentifier}',
      '/api/photos',
      '/api/photos/{photoName}',
    ]);
    expect(Object.keys(doc.paths['/api/pets'].post.responses)).toEqual(
      expect.arrayContaining(['200', '400', '401', '403', '405', '409', '429', '500']),
    );
    expect(Object.keys(doc.paths['/api/pets/{petIdentifier}'].get.responses)).toEqual(
      expect.arrayContaining(['200', '304', '400', '401', '404', '429', '500']),
    );
    expect(doc.components.schemas.Pet.required).toContain('updated_at');
    expect(doc.components.schemas.PetCreate.additionalProperties).toBe(false);
    // The Shelter Desk extensions are marked as such, and said where a client finds them.
    expect(doc.paths['/api/changes'].get['x-shelter-desk-extension']).toBe(true);
    expect(doc.paths['/api/pairing'].post['x-shelter-desk-extension']).toBe(true);
    expect(doc.paths['/api/off-list-pets'].get['x-shelter-desk-extension']).toBe(true);
    expect(doc.paths['/api/off-list-pets/records'].get['x-shelter-desk-extension']).toBe(true);
    expect(doc['x-shelter-desk-extensions'].changeStream.announcedBy).toBe('X-Shelter-Desk-Changes');
  });

  it('passes the Redocly OpenAPI linter (recommended rules) without errors or warnings', async () => {
    const source = (await call(server.apiUrl, '/openapi.json', { key: null })).text;
    const config = await createConfig({ extends: ['recommended'] });
    const problems = await lintFromString({ source, absoluteRef: 'openapi.json', config });
    expect(
      problems.map((problem) => `${problem.ruleId}: ${problem.message} @ ${problem.location[0]?.pointer}`),
    ).toEqual([]);
  });
});
