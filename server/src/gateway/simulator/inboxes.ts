/** A message as the receiving phone sees it. */
export interface InboxMessage {
  id: string;
  from: string;
  text: string;
  date: number;
  mediaUrl: string | null;
  buttons: Array<{ id: string; title: string; type: string }>;
  /** The sender deleted it for everyone. */
  revoked: boolean;
}

/**
 * What each number received, newest last. Bounded in both directions (messages per number, numbers
 * kept, least recently written dropped first) so a long benchmark cannot grow memory without end.
 */
export class Inboxes {
  private boxes = new Map<string, InboxMessage[]>();

  constructor(
    private readonly perNumber = 20,
    private readonly maxNumbers = 5_000,
  ) {}

  add(number: string, message: InboxMessage): void {
    let box = this.boxes.get(number);
    if (box) {
      // Re-inserting moves the number to the most recently used end of the map.
      this.boxes.delete(number);
    } else {
      box = [];
      if (this.boxes.size >= this.maxNumbers) {
        const oldest = this.boxes.keys().next();
        if (!oldest.done) this.boxes.delete(oldest.value);
      }
    }
    box.push(message);
    if (box.length > this.perNumber) box.splice(0, box.length - this.perNumber);
    this.boxes.set(number, box);
  }

  list(number: string): InboxMessage[] {
    return this.boxes.get(number) ?? [];
  }

  /** Marks a message deleted for everyone; false when it is no longer kept. */
  revoke(number: string, messageId: string): boolean {
    const found = this.boxes.get(number)?.find((m) => m.id === messageId);
    if (!found) return false;
    found.revoked = true;
    return true;
  }
}
