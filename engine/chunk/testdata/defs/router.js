import { parse } from "./url.js";

/** A router maps paths to handlers. */
export class Router {
  constructor() {
    this.routes = [];
  }

  add(path, handler) {
    this.routes.push({ path, handler });
    return this;
  }

  match(url) {
    const { pathname } = parse(url);
    for (const r of this.routes) {
      if (r.path === pathname) {
        return r.handler;
      }
    }
    return null;
  }
}

export function createRouter() {
  return new Router();
}

export const notFound = (req, res) => {
  res.statusCode = 404;
  res.end("not found");
};
