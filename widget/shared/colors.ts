/** The launcher's colour when the settings have none, or name one that is not `#rrggbb`. */
export const DEFAULT_ACCENT = '#1f6feb';

/** `#rgb` or `#rrggbb` as three channels 0-255, or null. */
function channels(hex: string): [number, number, number] | null {
  const short = /^#([0-9a-f])([0-9a-f])([0-9a-f])$/i.exec(hex);
  const long = /^#([0-9a-f]{2})([0-9a-f]{2})([0-9a-f]{2})$/i.exec(hex);
  const parts = short ? short.slice(1).map((part) => part + part) : long?.slice(1);
  if (!parts) {
    return null;
  }
  return parts.map((part) => Number.parseInt(part, 16)) as [number, number, number];
}

/** WCAG's relative luminance of sRGB channels. */
function luminance([r, g, b]: [number, number, number]): number {
  const linear = (channel: number) => {
    const c = channel / 255;
    return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  };
  return 0.2126 * linear(r) + 0.7152 * linear(g) + 0.0722 * linear(b);
}

/**
 * An accent colour and the text to write on it: white or black, whichever contrasts more with the
 * accent (WCAG's ratio), so any colour a help center picks stays readable. A value that is not a
 * hex colour falls back to the default rather than reaching a stylesheet.
 */
export function accentColors(color: string | null | undefined): { accent: string; onAccent: string } {
  const rgb = color ? channels(color) : null;
  const accent = rgb && color ? color : DEFAULT_ACCENT;
  const level = luminance(rgb ?? (channels(DEFAULT_ACCENT) as [number, number, number]));
  // Contrast with white is 1.05 / (L + 0.05), with black (L + 0.05) / 0.05: equal at L ≈ 0.179.
  const onAccent = 1.05 / (level + 0.05) >= (level + 0.05) / 0.05 ? '#ffffff' : '#000000';
  return { accent, onAccent };
}
