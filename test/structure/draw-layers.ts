// `make architecture`: redraws docs/architecture.svg from the imports of src/ and bench/.
import { readFileSync, writeFileSync } from 'node:fs';
import { layerPicture } from './layer-picture.js';
import { ARCHITECTURE, crossings, layerTable, roomEdges } from './rooms.js';

const rooms = layerTable(readFileSync(ARCHITECTURE, 'utf8'));
writeFileSync('docs/architecture.svg', layerPicture(rooms, roomEdges(crossings(rooms, ['src', 'bench']))));
console.log('docs/architecture.svg redrawn');
