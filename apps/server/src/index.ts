export { createApp, versionInfo } from './app.js';
export { startServer, type ServerOptions, type RunningServer } from './serve.js';
