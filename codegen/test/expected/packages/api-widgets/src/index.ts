// The widgets.example.com group package. Everything under ./generated comes from schemas/widgets/;
// add the hand-written behaviour of its kinds under ./registry and export it as `plugin` (docs/building-a-server.md).
export * from './generated/index.js';
