import { RegistrationError, type Registry, type RegistryEntry } from './registry';

/** What every registration returns. */
export interface RegisteredHandle<Patch> {
  readonly name: string;
  readonly enabled: boolean;
  /** Lists it again (and notifies clients). */
  enable(): void;
  /** Hides it from lists and calls (and notifies clients). */
  disable(): void;
  /** Changes its description, schemas, handler or name (and notifies clients). */
  update(patch: Patch): void;
  /** Unregisters it (and notifies clients). Later calls on the handle throw. */
  remove(): void;
}

/**
 * The handle of one registry entry: enable/disable/remove act on the registry; `update` is the feature's own
 * (it knows how to rebuild the entry). `kind` names the entry in errors ("Tool", "Prompt", …).
 */
export function createRegisteredHandle<E extends RegistryEntry<D>, D, Patch>(
  registry: Registry<E, D>,
  entry: E,
  kind: string,
  update: (patch: Patch) => void,
): RegisteredHandle<Patch> {
  let removed = false;
  const live = () => {
    if (removed) throw new RegistrationError('ERR_REMOVED', `${kind} "${entry.key}" was removed`, { name: entry.key });
  };
  const turn = (enabled: boolean) => {
    live();
    if (entry.enabled === enabled) return;
    entry.enabled = enabled;
    registry.changed();
  };
  return {
    get name() {
      return (entry as { name?: string }).name ?? entry.key;
    },
    get enabled() {
      return !removed && entry.enabled;
    },
    enable() {
      turn(true);
    },
    disable() {
      turn(false);
    },
    update(patch) {
      live();
      update(patch);
    },
    remove() {
      live();
      removed = true;
      registry.delete(entry);
    },
  };
}
