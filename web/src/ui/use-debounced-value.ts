import { useEffect, useState } from 'react';

/** `value` once it has stopped changing for `delayMs`: a search box asks the API once per pause, not per key. */
export function useDebouncedValue<Value>(value: Value, delayMs = 250): Value {
  const [settled, setSettled] = useState(value);
  useEffect(() => {
    const timer = setTimeout(() => setSettled(value), delayMs);
    return () => clearTimeout(timer);
  }, [value, delayMs]);
  return settled;
}
