import { createHttpAuthTransport, SessionManager } from './session.js';

/** The one session of this browser tab. */
export const appSession = new SessionManager(createHttpAuthTransport());
