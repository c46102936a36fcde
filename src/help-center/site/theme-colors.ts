/**
 * The brand colour a help center chooses, made readable: WCAG 2.2 AA asks for 4.5:1 between text
 * and its background, and an admin's colour is rarely checked against both the light and the dark
 * theme. Each use gets the chosen colour when it passes, else the nearest darker or lighter shade
 * that does.
 */
export interface ThemeColors {
  /** Header and button background. */
  brand: string;
  /** Text on `brand`: white or near-black, whichever reads better. */
  brandOn: string;
  /** Links on the light background. */
  link: string;
  /** Links on the dark background. */
  linkDark: string;
}

const LIGHT_BACKGROUND = '#ffffff';
// Links also sit on the cards (site.css `--card`), a shade nearer to the link colour than the page
// in both themes: readable there, they are readable everywhere.
const LIGHT_CARD = '#f8fafc';
const DARK_CARD = '#1f2937';
const DARK_TEXT = '#111827';
const MIN_CONTRAST = 4.5;

type Rgb = [number, number, number];

function parseHex(hex: string): Rgb {
  const value = Number.parseInt(hex.slice(1), 16);
  return [(value >> 16) & 255, (value >> 8) & 255, value & 255];
}

function toHex(rgb: Rgb): string {
  return `#${rgb.map((channel) => Math.round(channel).toString(16).padStart(2, '0')).join('')}`;
}

function luminance(rgb: Rgb): number {
  const [r, g, b] = rgb.map((channel) => {
    const c = channel / 255;
    return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  }) as Rgb;
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
}

export function contrastRatio(a: string, b: string): number {
  const [high, low] = [luminance(parseHex(a)), luminance(parseHex(b))].sort((x, y) => y - x) as [number, number];
  return (high + 0.05) / (low + 0.05);
}

/** `color` mixed towards `target` (black or white) step by step until it reads on `background`. */
function shadeUntilReadable(color: string, background: string, target: Rgb): string {
  const start = parseHex(color);
  for (let step = 0; step <= 20; step++) {
    const share = step / 20;
    const candidate = toHex(start.map((channel, index) => channel + ((target[index] ?? 0) - channel) * share) as Rgb);
    if (contrastRatio(candidate, background) >= MIN_CONTRAST) {
      return candidate;
    }
  }
  return toHex(target);
}

export function themeColors(primary: string): ThemeColors {
  const color = /^#[0-9a-f]{6}$/i.test(primary) ? primary.toLowerCase() : '#2563eb';
  const white = contrastRatio(color, LIGHT_BACKGROUND);
  const dark = contrastRatio(color, DARK_TEXT);
  const brand = Math.max(white, dark) >= MIN_CONTRAST ? color : shadeUntilReadable(color, LIGHT_BACKGROUND, [0, 0, 0]);
  return {
    brand,
    brandOn: contrastRatio(brand, LIGHT_BACKGROUND) >= contrastRatio(brand, DARK_TEXT) ? LIGHT_BACKGROUND : DARK_TEXT,
    link: shadeUntilReadable(color, LIGHT_CARD, [0, 0, 0]),
    linkDark: shadeUntilReadable(color, DARK_CARD, [255, 255, 255]),
  };
}
