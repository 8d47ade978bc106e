// Reads SGF files with @sabaki/sgf (Sabaki's reader) and writes them back with its writer.
const sgf = require('@sabaki/sgf')
const fs = require('fs')
const [input, output] = process.argv.slice(2)
const games = sgf.parse(fs.readFileSync(input, 'utf8'))
let nodes = 0
const count = (n) => { nodes++; n.children.forEach(count) }
games.forEach(count)
console.log(input, 'games', games.length, 'nodes', nodes)
fs.writeFileSync(output, sgf.stringify(games))
