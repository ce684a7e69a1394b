# bash completion for peviz (written by make docs from the option table)
_peviz() {
    local cur=${COMP_WORDS[COMP_CWORD]} prev=${COMP_WORDS[COMP_CWORD-1]}
    local opt=$prev eq=
    # --opt=value comes as --opt, =, value where = breaks words
    if [[ $cur == = ]]; then opt=$prev eq=1 cur=
    elif [[ $prev == = ]] && ((COMP_CWORD >= 2)); then
        opt=${COMP_WORDS[COMP_CWORD-2]} eq=1
    elif [[ $cur == --*=* ]]; then opt=${cur%%=*} eq=1 cur=${cur#*=}
    fi
    case $opt in
    --d-model|-d) return ;;
    --base|-b) return ;;
    --seq-len|-n) return ;;
    --pos) return ;;
    --view) COMPREPLY=($(compgen -W 'heatmap clocks attention compare grid' -- "$cur")); return ;;
    --fps) return ;;
    --palette) COMPREPLY=($(compgen -W 'default contrast mono' -- "$cur")); return ;;
    --color) COMPREPLY=($(compgen -W 'auto none 8 16 256 truecolor' -- "$cur")); return ;;
    --graphics) COMPREPLY=($(compgen -W 'auto kitty sixel iterm2 cells' -- "$cur")); return ;;
    --lang) COMPREPLY=($(compgen -W 'auto en zh' -- "$cur")); return ;;
    --rope-scaling) COMPREPLY=($(compgen -W 'none linear ntk dynamic yarn llama3 longrope proportional' -- "$cur")); return ;;
    --factor) return ;;
    --original-max) return ;;
    --low-freq-factor) return ;;
    --high-freq-factor) return ;;
    --beta-fast) return ;;
    --beta-slow) return ;;
    --mscale) return ;;
    --mscale-all-dim) return ;;
    --proportion) return ;;
    --attention-factor) return ;;
    --short-factor) return ;;
    --long-factor) return ;;
    --sequence) return ;;
    --spatial-merge) return ;;
    --tokens-per-second) return ;;
    --second-per-grid) return ;;
    --mrope-section) return ;;
    --grid) return ;;
    --tour) [[ $eq ]] && COMPREPLY=($(compgen -f -- "$cur")); [[ $eq ]] && return ;;
    --slides) COMPREPLY=($(compgen -d -- "$cur")); return ;;
    --record) COMPREPLY=($(compgen -f -- "$cur")); return ;;
    --autoplay) return ;;
    --export) COMPREPLY=($(compgen -W 'pe scores softmax pca pca-variance freqs bands position-ids bound' -- "$cur")); return ;;
    --format) COMPREPLY=($(compgen -W 'csv f32 f64 text ansi svg png' -- "$cur")); return ;;
    --rows) return ;;
    --pe-file) COMPREPLY=($(compgen -f -- "$cur")); return ;;
    --tensor) return ;;
    --row-offset) return ;;
    --components) return ;;
    --serve) COMPREPLY=($(compgen -f -- "$cur")); return ;;
    --serve-mode) return ;;
    --follow) COMPREPLY=($(compgen -f -- "$cur")); return ;;
    --files) COMPREPLY=($(compgen -d -- "$cur")); return ;;
    --model) COMPREPLY=($(compgen -W 'list llama2-7b llama3-8b llama3.1-8b llama3.2-1b mistral-7b-v0.1 mistral-7b-v0.2 qwen2.5-7b qwen2.5-7b-yarn gemma3-global gemma3-local gpt-oss-20b gpt-neox-20b deepseek-v3 qwen2-vl-7b qwen2.5-vl-7b qwen3-vl llama4-scout qwen3-8b-yarn gemma4-full gemma4-sliding kimi-k2.5 deepseek-v3.2 qwen3.5 glm-4.5-air phi-3.5-mini phi-4-mini' -- "$cur")); return ;;
    --config) COMPREPLY=($(compgen -f -- "$cur")); return ;;
    --check-freqs) COMPREPLY=($(compgen -f -- "$cur")); return ;;
    --check-cache) COMPREPLY=($(compgen -f -- "$cur")); return ;;
    --layer-type) return ;;
    --qk) COMPREPLY=($(compgen -f -- "$cur")); return ;;
    --size) return ;;
    --scale) return ;;
    --dim) return ;;
    --band) return ;;
    --ghost-k) return ;;
    --scheme) COMPREPLY=($(compgen -W 'sinusoidal rope alibi learned nope t5 kerple-log kerple-power sandwich xpos' -- "$cur")); return ;;
    --q) COMPREPLY=($(compgen -W 'ones random' -- "$cur")); return ;;
    --seed) return ;;
    --heads) return ;;
    --head) return ;;
    --train) return ;;
    --buckets) return ;;
    --max-distance) return ;;
    --r1) return ;;
    --r2) return ;;
    --xpos-scale-base) return ;;
    --rope-layout) COMPREPLY=($(compgen -W 'interleaved half' -- "$cur")); return ;;
    --rotary-dims) COMPREPLY=($(compgen -W 'all' -- "$cur")); return ;;
    --floor-scale) return ;;
    --attn-scale) return ;;
    --window) COMPREPLY=($(compgen -W 'none' -- "$cur")); return ;;
    --chunk) COMPREPLY=($(compgen -W 'none' -- "$cur")); return ;;
    --sink) COMPREPLY=($(compgen -W 'none' -- "$cur")); return ;;
    --schemes) COMPREPLY=($(compgen -W 'pe sinusoidal rope alibi learned nope t5 kerple-log kerple-power sandwich xpos' -- "$cur")); return ;;
    --model-b) COMPREPLY=($(compgen -W 'none llama2-7b llama3-8b llama3.1-8b llama3.2-1b mistral-7b-v0.1 mistral-7b-v0.2 qwen2.5-7b qwen2.5-7b-yarn gemma3-global gemma3-local gpt-oss-20b gpt-neox-20b deepseek-v3 qwen2-vl-7b qwen2.5-vl-7b qwen3-vl llama4-scout qwen3-8b-yarn gemma4-full gemma4-sliding kimi-k2.5 deepseek-v3.2 qwen3.5 glm-4.5-air phi-3.5-mini phi-4-mini' -- "$cur")); return ;;
    --model-c) COMPREPLY=($(compgen -W 'none llama2-7b llama3-8b llama3.1-8b llama3.2-1b mistral-7b-v0.1 mistral-7b-v0.2 qwen2.5-7b qwen2.5-7b-yarn gemma3-global gemma3-local gpt-oss-20b gpt-neox-20b deepseek-v3 qwen2-vl-7b qwen2.5-vl-7b qwen3-vl llama4-scout qwen3-8b-yarn gemma4-full gemma4-sliding kimi-k2.5 deepseek-v3.2 qwen3.5 glm-4.5-air phi-3.5-mini phi-4-mini' -- "$cur")); return ;;
    --base-b) return ;;
    --base-c) return ;;
    --scheme-a) COMPREPLY=($(compgen -W 'pe sinusoidal rope alibi learned nope t5 kerple-log kerple-power sandwich xpos' -- "$cur")); return ;;
    --rope-layout-a) COMPREPLY=($(compgen -W 'global interleaved half' -- "$cur")); return ;;
    --layer-a) return ;;
    --scheme-b) COMPREPLY=($(compgen -W 'pe sinusoidal rope alibi learned nope t5 kerple-log kerple-power sandwich xpos' -- "$cur")); return ;;
    --rope-layout-b) COMPREPLY=($(compgen -W 'global interleaved half' -- "$cur")); return ;;
    --layer-b) return ;;
    --scheme-c) COMPREPLY=($(compgen -W 'pe sinusoidal rope alibi learned nope t5 kerple-log kerple-power sandwich xpos' -- "$cur")); return ;;
    --rope-layout-c) COMPREPLY=($(compgen -W 'global interleaved half' -- "$cur")); return ;;
    --layer-c) return ;;
    --pane-mode) COMPREPLY=($(compgen -W 'heatmap spectrum profile diff ratio drift matrix' -- "$cur")); return ;;
    --grid-key) return ;;
    --one-d) COMPREPLY=($(compgen -W 'none alone beside' -- "$cur")); return ;;
    esac
    [[ $cur == -* ]] || return 0
    COMPREPLY=($(compgen -W '--d-model --base --seq-len --pos --view --ascii --no-braille --fps --mouse --low-bandwidth --palette --color --graphics --lang --rope-scaling --factor --original-max --low-freq-factor --high-freq-factor --beta-fast --beta-slow --no-truncate --mscale --mscale-all-dim --proportion --attention-factor --short-factor --long-factor --sequence --spatial-merge --tokens-per-second --second-per-grid --split-frames --mrope-section --mrope-interleaved --grid --plain --tour --check --slides --record --autoplay --export --format --rows --pe-file --tensor --row-offset --components --serve --serve-mode --follow --files --model --config --check-freqs --check-cache --layer-type --qk --snapshot --size --scale --no-user-settings --print-settings --dim --pca --band --ghost --ghost-k --counter --scheme --q --seed --heads --head --train --buckets --max-distance --bidirectional --r1 --r2 --xpos-scale-base --rope-layout --rotary-dims --temperature-tuning --floor-scale --attn-scale --softmax --causal --window --chunk --sink --temperature --content --schemes --model-b --model-c --base-b --base-c --scheme-a --rope-layout-a --layer-a --scheme-b --rope-layout-b --layer-b --scheme-c --rope-layout-c --layer-c --pane-mode --grid-key --one-d --help --version' -- "$cur"))
}
complete -F _peviz peviz
