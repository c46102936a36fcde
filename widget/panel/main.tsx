import './panel.css';
import { render } from 'preact';
import { App } from './App';
import { createMessengerClient } from './messenger-client';
import { createSoundPreference } from './sound';

/** Storage can be refused to a framed page (strict browser settings): the panel then keeps the token (and the sound's choice) in memory. */
function localStorageOrNull(): Storage | null {
  try {
    return window.localStorage;
  } catch {
    return null;
  }
}

// The page (`/widget/{slug}/`, served by the messenger API) names the help center and its API.
const mount = document.getElementById('switchboard-panel');
if (mount) {
  const slug = mount.dataset.helpCenter ?? '';
  const apiBase = mount.dataset.api ?? `/widget/${encodeURIComponent(slug)}/api`;
  const storage = localStorageOrNull();
  render(
    <App client={createMessengerClient({ apiBase, slug, storage })} soundPreference={createSoundPreference(storage, slug)} />,
    mount,
  );
}
