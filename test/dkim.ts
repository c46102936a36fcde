import { createHash, createVerify, type KeyObject } from 'node:crypto';

/**
 * A DKIM verifier for tests (RFC 6376, `rsa-sha256` with `relaxed/relaxed`, what nodemailer
 * signs), written here because no DKIM library is installed. It checks a received message as a
 * receiving server would: the body hash against the body, then the signature over the signed
 * header fields with the public key that the selector's DNS record would publish.
 */

export interface DkimCheck {
  /** The signature's tags (`d`, `s`, `h`, `bh`, …), whitespace removed. */
  tags: Record<string, string>;
  bodyHashMatches: boolean;
  signatureValid: boolean;
}

interface HeaderField {
  name: string;
  /** The whole field as it appears, folding included, without its final CRLF. */
  text: string;
}

function splitMessage(raw: string): { fields: HeaderField[]; body: string } {
  const end = raw.indexOf('\r\n\r\n');
  const head = end < 0 ? raw : raw.slice(0, end);
  const body = end < 0 ? '' : raw.slice(end + 4);
  const fields: HeaderField[] = [];
  for (const line of head.split('\r\n')) {
    const last = fields.at(-1);
    if (/^[ \t]/.test(line) && last) {
      last.text += `\r\n${line}`;
    } else {
      fields.push({ name: line.slice(0, line.indexOf(':')).trim().toLowerCase(), text: line });
    }
  }
  return { fields, body };
}

/** §3.4.4: runs of whitespace to one space, none at line ends, no empty lines at the end. */
function relaxedBody(body: string): string {
  const lines = body.split('\r\n').map((line) => line.replace(/[ \t]+/g, ' ').replace(/ $/, ''));
  while (lines.length > 0 && lines.at(-1) === '') {
    lines.pop();
  }
  return lines.length === 0 ? '' : `${lines.join('\r\n')}\r\n`;
}

/** §3.4.2: lower-case name, unfolded value with runs of whitespace to one space, trimmed. */
function relaxedHeader(text: string): string {
  const colon = text.indexOf(':');
  const name = text.slice(0, colon).trim().toLowerCase();
  const value = text
    .slice(colon + 1)
    .replace(/\r\n/g, '')
    .replace(/[ \t]+/g, ' ')
    .trim();
  return `${name}:${value}`;
}

function tagsOf(fieldText: string): Record<string, string> {
  const value = fieldText.slice(fieldText.indexOf(':') + 1).replace(/\s+/g, '');
  return Object.fromEntries(
    value
      .split(';')
      .filter(Boolean)
      .map((tag) => [tag.slice(0, tag.indexOf('=')), tag.slice(tag.indexOf('=') + 1)]),
  );
}

/** Checks the message's first DKIM-Signature; throws when it has none. */
export function verifyDkim(raw: string, publicKey: KeyObject): DkimCheck {
  const { fields, body } = splitMessage(raw);
  const signature = fields.find((field) => field.name === 'dkim-signature');
  if (!signature) {
    throw new Error('the message has no DKIM-Signature');
  }
  const tags = tagsOf(signature.text);
  if (tags.a !== 'rsa-sha256' || tags.c !== 'relaxed/relaxed') {
    throw new Error(`unsupported DKIM signature a=${tags.a} c=${tags.c}`);
  }
  const bodyHash = createHash('sha256').update(relaxedBody(body), 'latin1').digest('base64');
  // §5.4.2: each name in h= takes the last field of that name not yet taken; a missing one signs nothing.
  const unused = fields.filter((field) => field !== signature);
  const signed: string[] = [];
  for (const name of (tags.h ?? '').toLowerCase().split(':')) {
    const index = unused.map((field) => field.name).lastIndexOf(name);
    if (index >= 0) {
      signed.push(`${relaxedHeader((unused[index] as HeaderField).text)}\r\n`);
      unused.splice(index, 1);
    }
  }
  // The signature's own field, with the value of b= left empty and no final CRLF.
  signed.push(relaxedHeader(signature.text.replace(/(;\s*b=)[^;]*$/, '$1')));
  const verifier = createVerify('RSA-SHA256');
  verifier.update(signed.join(''), 'latin1');
  return {
    tags,
    bodyHashMatches: bodyHash === tags.bh,
    signatureValid: verifier.verify(publicKey, tags.b ?? '', 'base64'),
  };
}
