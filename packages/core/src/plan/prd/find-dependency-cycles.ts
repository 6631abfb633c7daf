/**
 * Groups of nodes that reach each other (strongly connected components, Tarjan's
 * algorithm without recursion, so long chains cannot overflow the stack).
 */
function stronglyConnected(
  nodes: readonly string[],
  edges: ReadonlyMap<string, readonly string[]>,
): string[][] {
  const order = new Map<string, number>();
  const lowest = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const components: string[][] = [];

  const enter = (node: string): void => {
    order.set(node, order.size);
    lowest.set(node, order.size - 1);
    stack.push(node);
    onStack.add(node);
  };

  const closeComponent = (node: string): void => {
    const component: string[] = [];
    for (let member = stack.pop(); member !== undefined; member = stack.pop()) {
      onStack.delete(member);
      component.push(member);
      if (member === node) break;
    }
    components.push(component);
  };

  for (const root of nodes) {
    if (order.has(root)) continue;
    enter(root);
    const path: { node: string; next: number }[] = [{ node: root, next: 0 }];
    while (path.length > 0) {
      const frame = path.at(-1);
      if (frame === undefined) break;
      const target = (edges.get(frame.node) ?? [])[frame.next];
      frame.next += 1;
      if (target !== undefined) {
        if (!order.has(target)) {
          enter(target);
          path.push({ node: target, next: 0 });
        } else if (onStack.has(target)) {
          lowest.set(frame.node, Math.min(lowest.get(frame.node) ?? 0, order.get(target) ?? 0));
        }
        continue;
      }
      path.pop();
      const parent = path.at(-1);
      if (parent !== undefined) {
        lowest.set(
          parent.node,
          Math.min(lowest.get(parent.node) ?? 0, lowest.get(frame.node) ?? 0),
        );
      }
      if (lowest.get(frame.node) === order.get(frame.node)) closeComponent(frame.node);
    }
  }
  return components;
}

/** The shortest path from `start` back to itself through `members`, without the final `start`. */
function shortestCycle(
  start: string,
  members: ReadonlySet<string>,
  edges: ReadonlyMap<string, readonly string[]>,
): string[] {
  const previous = new Map<string, string>();
  const queue = [start];
  for (let head = 0; head < queue.length; head += 1) {
    const node = queue[head] ?? start;
    for (const next of edges.get(node) ?? []) {
      if (!members.has(next)) continue;
      if (next === start) {
        const cycle = [node];
        for (let step = previous.get(node); step !== undefined; step = previous.get(step)) {
          cycle.push(step);
        }
        return cycle.reverse();
      }
      if (previous.has(next) || next === start) continue;
      previous.set(next, node);
      queue.push(next);
    }
  }
  return [start];
}

/**
 * One cycle per group of nodes that depend on each other, each as the list of its nodes
 * starting at the group's first node in `nodes` order (the cycle closes back to it).
 * Self-edges are ignored. `edges` maps a node to the nodes it depends on.
 */
export function findDependencyCycles(
  nodes: readonly string[],
  edges: ReadonlyMap<string, readonly string[]>,
): string[][] {
  const position = new Map(nodes.map((node, index) => [node, index]));
  const withoutSelf = new Map(
    [...edges].map(([node, targets]) => [node, targets.filter((target) => target !== node)]),
  );
  return stronglyConnected(nodes, withoutSelf)
    .filter((component) => component.length > 1)
    .map((component) => {
      const start = [...component].sort(
        (left, right) => (position.get(left) ?? 0) - (position.get(right) ?? 0),
      )[0];
      return start === undefined ? [] : shortestCycle(start, new Set(component), withoutSelf);
    })
    .sort(
      (left, right) => (position.get(left[0] ?? "") ?? 0) - (position.get(right[0] ?? "") ?? 0),
    );
}
