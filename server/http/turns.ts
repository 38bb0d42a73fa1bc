// Work that costs seconds or much memory takes turns: a few tasks run at once, a bounded number
// wait, and beyond that the caller is refused at once, so one client repeating such calls cannot
// take the server from everyone else.

/** Lanes listed first are served first; each lane has its own room to wait in. */
export class Turns<Lane extends string> {
  private readonly waiting = new Map<Lane, (() => void)[]>();
  private active = 0;

  constructor(
    private readonly limit: number,
    private readonly room: Record<Lane, number>,
    private readonly full: () => Error,
  ) {
    for (const lane of Object.keys(room) as Lane[]) this.waiting.set(lane, []);
  }

  async run<T>(lane: Lane, task: () => Promise<T>): Promise<T> {
    if (this.active >= this.limit) {
      const queue = this.waiting.get(lane) ?? [];
      if (queue.length >= this.room[lane]) throw this.full();
      // The slot is handed over by the finishing task (`active` stays counted).
      await new Promise<void>((resolve) => queue.push(resolve));
    } else {
      this.active++;
    }
    try {
      return await task();
    } finally {
      const next = [...this.waiting.values()].find((queue) => queue.length > 0)?.shift();
      if (next) next();
      else this.active--;
    }
  }
}
