#pragma once
// A stage's state as `strata show` renders it (render_human.h, render_json.h): the plan
// layer does not see the state store, so the CLI hands its rows over in this shape.

#include <cstdint>
#include <string>
#include <vector>

#include "engine/addr/addr.h"
#include "engine/value/value.h"

namespace strata {

struct StateView {
  struct Resource {
    ResourceInstanceAddr addr;         // mode "data" for a data source's last read
    std::string provider;              // as recorded: "strata/aws", "strata/aws.west"
    int64_t schema_version = 0;
    Value values;                      // an object; sensitive parts carry the mark
    std::vector<std::string> depends_on;
    bool tainted = false;
    std::string deposed_key = "";  // a deposed object's key (state::ResourceInstanceState::deposed)
  };
  struct Output {
    std::string name;
    Value value;
    bool sensitive = false;
  };
  std::vector<Resource> resources;  // any order: the renderers sort by address
  std::vector<Output> outputs;
};

}  // namespace strata
