//! The command line described as data (JSON), for callers that build command lines themselves — the Python
//! package types and checks its keyword options with it: every subcommand with its options (name, value
//! type, whether repeatable, choices, default, help) and the built-in programs with the options each takes.

use crate::cli::Cli;
use clap::CommandFactory;
use programs::Takes;
use serde_json::{Value, json};
use std::any::TypeId;

/// The value type of an option as Python would hold it: `bool` (a flag), `count` (a repeatable flag),
/// `int`, `float` or `str`.
fn value_type(a: &clap::Arg) -> &'static str {
    match a.get_action() {
        clap::ArgAction::SetTrue | clap::ArgAction::SetFalse => return "bool",
        clap::ArgAction::Count => return "count",
        _ => {}
    }
    let t = a.get_value_parser().type_id();
    let ints = [
        TypeId::of::<u8>(),
        TypeId::of::<u16>(),
        TypeId::of::<u32>(),
        TypeId::of::<u64>(),
        TypeId::of::<usize>(),
        TypeId::of::<i32>(),
        TypeId::of::<i64>(),
    ];
    if ints.iter().any(|i| t == *i) {
        "int"
    } else if t == TypeId::of::<f64>() || t == TypeId::of::<f32>() {
        "float"
    } else {
        "str"
    }
}

fn arg_json(a: &clap::Arg) -> Value {
    let choices: Vec<String> = a.get_possible_values().iter().map(|p| p.get_name().to_string()).collect();
    let defaults: Vec<String> = a.get_default_values().iter().map(|d| d.to_string_lossy().into_owned()).collect();
    json!({
        "name": a.get_id().as_str(),
        "long": a.get_long(),
        "positional": a.is_positional(),
        "type": value_type(a),
        "repeatable": matches!(a.get_action(), clap::ArgAction::Append),
        "required": a.is_required_set(),
        "choices": choices,
        "default": defaults.first(),
        "value_name": a.get_value_names().and_then(|v| v.first()).map(|v| v.as_str()),
        "help": a.get_help().map(|h| h.to_string()).unwrap_or_default(),
    })
}

/// Every subcommand's options and every built-in program's, as one JSON document:
/// `{"version", "commands": {name: {"about", "args": [...]}}, "programs": [{"name", "about", "options"}]}`.
pub fn describe_json() -> String {
    let cli = Cli::command();
    let mut commands = serde_json::Map::new();
    // Subcommands of subcommands (`layout metal`) by their words joined with a space.
    let mut todo: Vec<(String, &clap::Command)> =
        cli.get_subcommands().map(|s| (s.get_name().to_string(), s)).collect();
    while let Some((name, sub)) = todo.pop() {
        todo.extend(
            sub.get_subcommands().filter(|s| s.get_name() != "help").map(|s| (format!("{name} {}", s.get_name()), s)),
        );
        let args: Vec<Value> =
            sub.get_arguments().filter(|a| a.get_id() != "help" && a.get_id() != "version").map(arg_json).collect();
        commands
            .insert(name, json!({"about": sub.get_about().map(|s| s.to_string()).unwrap_or_default(), "args": args}));
    }
    let mut progs: Vec<Value> = programs::list()
        .iter()
        .map(|e| {
            let mut options: Vec<&str> = e.takes.iter().map(Takes::name).collect();
            options.push("seed");
            let size = e.takes.iter().find_map(|t| match t {
                Takes::Size { meaning, min, max } => Some(json!({"meaning": meaning, "min": min, "max": max})),
                _ => None,
            });
            json!({"name": e.name, "about": e.about, "options": options, "size": size, "collective": false})
        })
        .collect();
    for (name, about) in crate::cmd_run::collectives::COLLECTIVES {
        let options = ["system", "cluster", "devices", "topology", "shape", "dim", "workers", "seed"];
        progs.push(json!({"name": name, "about": about, "options": options, "size": null, "collective": true}));
    }
    json!({"version": env!("CARGO_PKG_VERSION"), "commands": commands, "programs": progs}).to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_description_types_the_run_options() {
        let d: Value = serde_json::from_str(&describe_json()).unwrap();
        let run = &d["commands"]["run"]["args"];
        let find = |n: &str| run.as_array().unwrap().iter().find(|a| a["name"] == n).cloned().unwrap();
        assert_eq!(find("seed")["type"], "int");
        assert_eq!(find("allow_large")["type"], "bool");
        assert_eq!(find("set")["repeatable"], true);
        assert_eq!(find("check")["type"], "str");
        assert_eq!(find("example")["positional"], true);
        let progs = d["programs"].as_array().unwrap();
        let mm = progs.iter().find(|p| p["name"] == "matmul_multicore_reuse_mcast").unwrap();
        assert!(mm["options"].as_array().unwrap().iter().any(|o| o == "fidelity"));
        assert!(progs.iter().any(|p| p["name"] == "all_gather" && p["collective"] == true));
        assert!(d["commands"]["dm-bench"]["args"].as_array().unwrap().len() > 3);
        assert!(d["commands"]["layout metal"]["args"].as_array().unwrap().iter().any(|a| a["name"] == "grid"));
    }
}
