/** Now, in ms since the epoch: Date.now in the app (AppModule provides it under CLOCK). */
export type Clock = () => number;

export const CLOCK = Symbol('Clock');
