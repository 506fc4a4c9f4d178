import { createBrowserRouter } from 'react-router-dom';
import { routes } from './routes.js';

export function createAppRouter() {
  return createBrowserRouter(routes);
}
