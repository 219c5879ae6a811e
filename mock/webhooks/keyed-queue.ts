/** An entry of a `KeyedQueue`, as `shift` hands it back. */
interface Entry<V> {
  readonly key: string;
  readonly value: V;
}

interface Node<V> extends Entry<V> {
  value: V;
  prev: Node<V> | undefined;
  next: Node<V> | undefined;
}

/**
 * A first-in first-out queue of values by key, with O(1) add, take from the front and removal of any key.
 *
 * Why not a Map taken from the front (`entries().next()`), which keeps insertion order too: V8 leaves a deleted
 * entry in its place until the table is rebuilt, so a Map whose oldest entries are deleted while new ones arrive
 * makes every walk from the front step over the deleted ones first. The held attempts of a tenant fanning out to a
 * silent receiver were that Map: their oldest ended by the thousand (the Pending bound), and each attempt taken
 * after one was cancelled stepped over up to ~10,000 of them, ~9 µs (bench noisy-neighbour). Here the order is a
 * linked list; the Map only finds a key's node.
 */
export class KeyedQueue<V> {
  private readonly nodes = new Map<string, Node<V>>();
  private head: Node<V> | undefined;
  private tail: Node<V> | undefined;

  get size(): number {
    return this.nodes.size;
  }

  /**
   * Queues a value at the back, or replaces the value of a key already queued (which keeps its place); says whether
   * the key was added (one lookup where `has` then `set` made two, on a table of thousands: bench noisy-neighbour).
   */
  set(key: string, value: V): boolean {
    const queued = this.nodes.get(key);
    if (queued) {
      queued.value = value;
      return false;
    }
    const node: Node<V> = { key, value, prev: this.tail, next: undefined };
    if (this.tail) this.tail.next = node;
    else this.head = node;
    this.tail = node;
    this.nodes.set(key, node);
    return true;
  }

  /** Takes the entry queued longest, if any. */
  shift(): Entry<V> | undefined {
    const node = this.head;
    if (node) this.unlink(node);
    return node;
  }

  /** Removes a key's entry; says whether it was queued. */
  delete(key: string): boolean {
    const node = this.nodes.get(key);
    if (!node) return false;
    this.unlink(node);
    return true;
  }

  private unlink(node: Node<V>): void {
    this.nodes.delete(node.key);
    if (node.prev) node.prev.next = node.next;
    else this.head = node.next;
    if (node.next) node.next.prev = node.prev;
    else this.tail = node.prev;
    node.prev = undefined;
    node.next = undefined;
  }
}
