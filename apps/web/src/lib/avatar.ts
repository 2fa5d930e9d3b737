/** Up to two initials of a full name: 'Ada Lovelace' -> 'AL', 'plato' -> 'P'. */
export function initials(fullName: string): string {
  const words = fullName.trim().split(/\s+/).filter(Boolean);
  if (words.length === 0) return '?';
  const first = Array.from(words[0]!)[0] ?? '';
  const last = words.length > 1 ? (Array.from(words[words.length - 1]!)[0] ?? '') : '';
  return (first + last).toUpperCase();
}

const escapeXml = (s: string) =>
  s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&apos;' })[c]!);

/**
 * The fallback avatar (spec §3): bold white initials on a blue round badge, generated
 * here as an SVG data URL instead of calling an avatar service.
 */
export function initialsAvatar(fullName: string, size = 50): string {
  const text = escapeXml(initials(fullName));
  const svg =
    `<svg xmlns="http://www.w3.org/2000/svg" width="${size}" height="${size}" viewBox="0 0 100 100">` +
    `<circle cx="50" cy="50" r="50" fill="#2563eb"/>` +
    `<text x="50" y="50" dy=".35em" text-anchor="middle" fill="#fff" font-family="system-ui,sans-serif" font-size="40" font-weight="700">${text}</text>` +
    `</svg>`;
  return `data:image/svg+xml;charset=utf-8,${encodeURIComponent(svg)}`;
}
