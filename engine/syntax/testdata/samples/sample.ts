// A small module for the golden test.
import { Injectable } from "./di";

/** Options of the client. */
export interface ClientOptions {
  baseUrl: string;
  retries?: number;
}

export type Handler = (req: Request) => Promise<Response>;

export enum Level {
  Debug,
  Info,
}

namespace Internal {
  export function helper(): number {
    return 1;
  }
}

@Injectable()
export class Client {
  private cache = new Map<string, string>();

  constructor(private readonly opts: ClientOptions) {}

  // get fetches a path.
  async get(path: string): Promise<string> {
    return fetch(this.opts.baseUrl + path).then((r) => r.text());
  }

  onError = (err: Error): void => {
    console.error(err);
  };
}

export abstract class Base {
  abstract run(): void;
}

export function overloaded(x: string): string;
export function overloaded(x: number): number;
export function overloaded(x: any): any {
  return x;
}

export const compose = <T>(f: (x: T) => T, g: (x: T) => T) => (x: T) => f(g(x));
