import { isIP } from 'node:net';
import { AppError } from '../../lib/errors.js';

const MAX_DOMAIN_LENGTH = 253;
/** A DNS label: letters, digits and inner hyphens, 1 to 63 characters. */
const LABEL = /^[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/;

function refuse(message: string, rule: string): never {
  throw AppError.invalid(`customDomain ${message}`, { location: 'body', path: ['customDomain'], rule });
}

/**
 * The host name a help center's site answers on, as stored and compared: trimmed, lower-case,
 * without the trailing dot of a fully qualified name. A 400 naming `customDomain` unless it is a
 * DNS host name of at least two labels: no scheme, port or path (a `Host` header never carries
 * them, so such a value would never match), and no IP address (the instance's own addresses
 * serve every help center under `/hc/{slug}`).
 */
export function normalizeCustomDomain(text: string): string {
  const lowered = text.trim().toLowerCase();
  if (lowered.includes('://')) {
    refuse('must be a host name without a scheme (help.example.com, not https://help.example.com)', 'format');
  }
  if (lowered.includes('/')) {
    refuse('must be a host name without a path', 'format');
  }
  if (isIP(lowered.replace(/^\[(.*)\]$/, '$1')) !== 0) {
    refuse('must be a host name, not an IP address', 'format');
  }
  if (lowered.includes(':')) {
    refuse('must be a host name without a port', 'format');
  }
  const domain = lowered.endsWith('.') ? lowered.slice(0, -1) : lowered;
  if (domain.length > MAX_DOMAIN_LENGTH) {
    refuse(`must be at most ${MAX_DOMAIN_LENGTH} characters long`, 'maxLength');
  }
  const labels = domain.split('.');
  if (!labels.every((label) => LABEL.test(label))) {
    refuse('must be labels of letters, digits and hyphens (at most 63 each) joined by dots', 'format');
  }
  if (labels.length < 2) {
    refuse('must have at least two labels (help.example.com)', 'format');
  }
  // No top-level domain is all digits: `10.0.0.300` is a mistyped address, not a name.
  if (/^[0-9]+$/.test(labels[labels.length - 1] ?? '')) {
    refuse('must be a host name, not an IP address', 'format');
  }
  return domain;
}
