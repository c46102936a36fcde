import { useMemo } from 'react';

/** Every IANA zone the browser knows, for a text field to suggest while typing (`list` = this id). */
export function TimeZoneOptions({ id }: { id: string }) {
  const zones = useMemo(() => {
    const known = typeof Intl.supportedValuesOf === 'function' ? Intl.supportedValuesOf('timeZone') : [];
    return known.includes('UTC') ? known : ['UTC', ...known];
  }, []);
  return (
    <datalist id={id}>
      {zones.map((zone) => (
        <option key={zone} value={zone} />
      ))}
    </datalist>
  );
}
