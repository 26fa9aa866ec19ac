/**
 * Which memories are dialog turns of one conversation, the only ones neighbour expansion joins.
 * Defined once in the domain (dialogTurn.ts), where the stores that keep it per memory read it too.
 */
export { conversationKey } from '../domain/dialogTurn.ts';
