// Writes SGF files with @sabaki/sgf, the library Sabaki reads and writes games with.
const sgf = require('@sabaki/sgf')
const fs = require('fs')
let id = 0
const node = (data, children = []) => ({id: id++, data, parentId: null, children})
const line = (datas) => {
  let children = []
  for (const data of datas.slice().reverse()) children = [node(data, children)]
  return children
}
const root = (size, komi, extra) => Object.assign({
  GM: ['1'], FF: ['4'], CA: ['UTF-8'], AP: ['Sabaki:0.52.2'], KM: [komi], SZ: [size], DT: ['2026-11-23']
}, extra)
// 2x5 (five columns, two rows), with a variation at the second move.
const main = line([{W: ['db']}, {B: ['ba']}, {W: ['']}, {B: ['']}])
const other = line([{W: ['ab']}, {B: ['bb']}])
const game1 = node(root('5:2', '0', {}), [node({B: ['cb']}, [...main, ...other])])
fs.writeFileSync(process.argv[2] + '/sabaki-2x5.sgf', sgf.stringify([game1]))
// 3x3 from setup stones, White to play first, with a comment.
const game2 = node(root('3', '0.5', {AB: ['aa', 'ba'], AW: ['cc'], PL: ['W'], C: ['Setup [by] Sabaki\'s writer']}),
  line([{W: ['bb']}, {B: ['cb']}, {W: ['bc']}]))
fs.writeFileSync(process.argv[2] + '/sabaki-3x3-setup.sgf', sgf.stringify([game2]))
