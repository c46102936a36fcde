import { describe, expect, it } from 'vitest';
import { signSlackRequest, verifySlackSignature } from './slack-signature.js';

// Slack's own worked example (api.slack.com/authentication/verifying-requests-from-slack).
const EXAMPLE = {
  signingSecret: '8f742231b10e8888abcd99yyyzzz85a5',
  timestamp: '1531420618',
  rawBody:
    'token=xyzz0WbapA4vBCDEFasx0q6G&team_id=T1DC2JH3J&team_domain=testteamnow&channel_id=G8PSS9T3V&channel_name=foobar' +
    '&user_id=U2CERLKJA&user_name=roadrunner&command=%2Fwebhook-collect&text=&response_url=https%3A%2F%2Fhooks.slack.com' +
    '%2Fcommands%2FT1DC2JH3J%2F397700885554%2F96rGlfmibIGlgcZRskXaIFfN&trigger_id=398738663015.47445629121.803a0bc887a14d10d2c447fce8b6703c',
  signature: 'v0=a2114d57b48eac39b9ad189dd8316235a7b4a8d21a10bd27519666489c69b503',
};

describe('Slack request signatures (v0)', () => {
  it("signs as Slack's documented example does, and accepts it within five minutes", () => {
    expect(signSlackRequest(EXAMPLE.signingSecret, EXAMPLE.timestamp, EXAMPLE.rawBody)).toBe(EXAMPLE.signature);
    expect(verifySlackSignature({ ...EXAMPLE, nowSeconds: 1531420618 + 300 })).toEqual({ ok: true });
  });

  it('names what is wrong with a refused one', () => {
    const check = (changes: Partial<Parameters<typeof verifySlackSignature>[0]>) =>
      verifySlackSignature({ ...EXAMPLE, nowSeconds: 1531420618, ...changes });
    expect(check({ signature: undefined })).toEqual({ ok: false, reason: 'missing_signature' });
    expect(check({ timestamp: undefined })).toEqual({ ok: false, reason: 'missing_signature' });
    expect(check({ timestamp: '1531420618.5' })).toEqual({ ok: false, reason: 'bad_timestamp' });
    expect(check({ nowSeconds: 1531420618 + 301 })).toEqual({ ok: false, reason: 'stale_timestamp' });
    expect(check({ nowSeconds: 1531420618 - 301 })).toEqual({ ok: false, reason: 'stale_timestamp' });
    expect(check({ rawBody: `${EXAMPLE.rawBody}&x=1` })).toEqual({ ok: false, reason: 'bad_signature' });
    expect(check({ signingSecret: 'another' })).toEqual({ ok: false, reason: 'bad_signature' });
    expect(check({ signature: 'v0=short' })).toEqual({ ok: false, reason: 'bad_signature' });
  });
});
