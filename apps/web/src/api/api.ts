import { sudoPrompt } from './sudo-prompt.js';
import { appSession } from './app-session.js';
import { createApiClient } from './client.js';
import { createTypedApi } from './typed-api.js';

/** The app's API client, wired to the tab's session (bearer token, one refresh-and-retry on 401, the password again on SUDO_REQUIRED). */
export const api = createApiClient({
  getAccessToken: () => appSession.getAccessToken(),
  refresh: () => appSession.refresh(),
  onUnauthenticated: () => appSession.clear(),
  confirmIdentity: () => sudoPrompt.request(),
});

/** The same client, with every path, parameter, body and answer typed from the gateway's OpenAPI document. */
export const http = createTypedApi((url, options) => api.request(url, options));
