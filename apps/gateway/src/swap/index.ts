import { SwapViewEntity } from './swap-view.entity';

export { SwapModule } from './swap.module';
/** Entities of the swap feature, for the gateway's TypeORM entity list. */
export const SWAP_ENTITIES = [SwapViewEntity];
