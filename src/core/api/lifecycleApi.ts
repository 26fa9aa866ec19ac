// Defaults of the lifecycle operations that tool schemas describe to agents.
export { DEFAULT_MAX_AUTO_LINKS } from '../lifecycle/links.ts';
export { DEFAULT_LINK_THRESHOLD } from '../lifecycle/relatedness.ts';
