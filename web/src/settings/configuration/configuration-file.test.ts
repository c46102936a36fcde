import { describe, expect, it } from 'vitest';
import { exportFileName, parseDocument, problemsOf } from './configuration-file';

describe('configuration files', () => {
  it('names the download after the organization and the day', () => {
    expect(exportFileName('Acme Support, Inc.', new Date('2026-11-29T10:00:00Z'))).toBe(
      'switchboard-acme-support-inc-2026-11-29.json',
    );
    expect(exportFileName('***', new Date('2026-11-29T10:00:00Z'))).toBe('switchboard-configuration-2026-11-29.json');
  });

  it('reads a document, and says why a file is not one', () => {
    expect(parseDocument('{"version":1}')).toEqual({ document: { version: 1 } });
    expect(parseDocument('[1]')).toEqual({ problem: expect.stringMatching(/not a configuration document/) });
    expect(parseDocument('{version')).toEqual({ problem: expect.stringMatching(/^The file is not JSON/) });
  });

  it("splits the API's refusal into its problems", () => {
    expect(problemsOf('version must be 1; teams.0.name must be at least 1 characters long')).toEqual([
      'version must be 1',
      'teams.0.name must be at least 1 characters long',
    ]);
  });
});
