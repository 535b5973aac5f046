export * from './limit-order.model';
export * from './limit-order.requests';
export * from './limit-order.events';
