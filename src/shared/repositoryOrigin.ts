/** Where a project memory shared through the repository comes from, as the panel shows it (issue #34). */
export { provenanceText, repositoryOriginOf } from '../core/domain/repositoryOrigin.ts';
