// Drives smallgo with @sabaki/gtp, the GTP library Sabaki runs engines with,
// as Sabaki runs an analysis: `kata-analyze COLOR INTERVAL ownership true`
// sent without waiting, its streamed lines taken from the subscriber, the
// stream ended by the next command. Writes what the library handed over:
// `> COMMAND` for each command, `< LINE` for the first analysis line, and
// `# ownership N values, W x H points` for the values read from it.
// Usage: node sabaki-ownership.js SMALLGO OUT
const {Controller} = require('@sabaki/gtp')
const fs = require('fs')

const [engine, out] = process.argv.slice(2)
const controller = new Controller(engine, [])
const lines = []

const send = async (text) => {
  const [name, ...args] = text.split(' ')
  lines.push('> ' + text)
  const response = await controller.sendCommand({name, args})
  if (response.error) throw new Error(text + ': ' + response.content)
}

const analyze = (text, width, height) =>
  new Promise((resolve, reject) => {
    const [name, ...args] = text.split(' ')
    lines.push('> ' + text)
    let first = null
    controller
      .sendCommand({name, args}, ({line}) => {
        if (first == null && line.startsWith('info ')) {
          first = line
          // Any next command ends the stream, as in Sabaki.
          controller.sendCommand({name: 'name'}).then(() => {
            const values = first.split(' ownership ')[1].trim().split(/\s+/).map(Number)
            if (values.some((v) => Number.isNaN(v) || v < -1 || v > 1)) reject(new Error(first))
            lines.push('< ' + first)
            lines.push(`# ownership ${values.length} values, ${width} x ${height} points`)
            resolve()
          })
        }
      })
      .catch(reject)
  })

;(async () => {
  await send('rectangular_boardsize 3 2')
  await send('komi 0')
  for (const move of ['b A1', 'b A2', 'w C1', 'w C2']) await send('play ' + move)
  await analyze('kata-analyze b 50 ownership true', 3, 2)
  await analyze('kata-analyze w 50 ownership true', 3, 2)
  await send('rectangular_boardsize 4 3')
  await send('komi 0.5')
  await send('play b B2')
  await analyze('kata-analyze w 50 ownership true', 4, 3)
  await send('boardsize 4')
  await send('komi 0')
  await analyze('kata-analyze b 50 ownership true', 4, 4)
  await controller.stop()
  fs.writeFileSync(out, lines.join('\n') + '\n')
})().catch((error) => {
  console.error(error)
  process.exit(1)
})
